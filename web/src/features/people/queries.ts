import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** Who's in, the week view, whose desk is whose, a person's switches and stars (docs/people.md). */
/** Without `date`: today in the office's time zone. */
export const usePeopleIn = (departmentId: string, date?: string) =>
  $api.useQuery(
    'get',
    '/api/people/in',
    { params: { query: { departmentId, ...(date ? { date } : {}) } } },
    { enabled: departmentId !== '', placeholderData: keepPreviousData },
  );
export const usePeopleWeek = (from: string) => $api.useQuery('get', '/api/people/week', { params: { query: { from } } }, { placeholderData: keepPreviousData });
/** The longest window the service names occupants for (OCCUPANTS_MAX_WINDOW_HOURS). */
const OCCUPANTS_MAX_MS = 24 * 3_600_000;

/**
 * Whose each booked desk of the office is in the window, by desk id, as far as the caller may see
 * (docs/people.md#the-floor-plan): the names joined, none for "booked". Not asked for longer windows.
 */
export function useWhoseDesks(departmentId: string, from: string, to: string): Map<string, string> {
  const span = Date.parse(to) - Date.parse(from);
  const query = $api.useQuery(
    'get',
    '/api/people/desks',
    { params: { query: { departmentId, from, to } } },
    { enabled: departmentId !== '' && span > 0 && span <= OCCUPANTS_MAX_MS },
  );
  const names = new Map<string, string>();
  for (const desk of query.data?.desks ?? []) {
    const named = desk.occupants.flatMap((occupant) => (occupant.name ? [occupant.name] : []));
    if (named.length > 0) names.set(desk.deskId, [...new Set(named)].join(', '));
  }
  return names;
}

export const usePrivacy = () => $api.useQuery('get', '/api/self/privacy');
export const useSavePrivacy = () => $api.useMutation('put', '/api/self/privacy', { meta: { invalidates: STALE_AFTER.privacy } });
export const useStarred = () => $api.useQuery('get', '/api/self/starred-people');
export const useStar = () => $api.useMutation('put', '/api/self/starred-people/{userId}', { meta: { invalidates: STALE_AFTER.starred } });
export const useUnstar = () => $api.useMutation('delete', '/api/self/starred-people/{userId}', { meta: { invalidates: STALE_AFTER.starred } });
