import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import { useMutation } from '@tanstack/react-query';
import { reservedReason, weekdaysOf, type DeskPlace } from './reserved.js';
import type { Allowance, PolicyArea, PolicyAreaInput, PolicyRule, PolicyRuleInput } from '../../api/types.js';

/** Booking policies (docs/policies.md): rules and areas for admins, the preview, the caller's allowance. */

export type { Allowance, PolicyArea, PolicyAreaInput, PolicyRule, PolicyRuleInput };
export { WEEKDAYS } from './reserved.js';

export const useRules = () => $api.useQuery('get', '/api/admin/policies/rules', {});
export const useAreas = () => $api.useQuery('get', '/api/admin/policies/areas', {});
export const useCreateRule = (onSuccess: () => void) =>
  $api.useMutation('post', '/api/admin/policies/rules', { meta: { invalidates: STALE_AFTER.policies }, onSuccess });
/** Creates (no id) or replaces an area. */
export const useSaveArea = (id: string | undefined, onSuccess: (saved: PolicyArea) => void) =>
  useMutation({
    mutationFn: async (body: PolicyAreaInput): Promise<PolicyArea> =>
      id
        ? await call(api.PUT('/api/admin/policies/areas/{id}', { params: { path: { id } }, body }))
        : await call(api.POST('/api/admin/policies/areas', { body })),
    meta: { invalidates: STALE_AFTER.policies },
    onSuccess,
  });
/** Every team (at most 500, the most the service keeps): the choices of the areas' and rules' forms. */
export const useAllTeams = () =>
  $api.useQuery('get', '/api/teams', { params: { query: { size: 500 } } }, { staleTime: 60_000, select: (page) => page.content });
export const deleteRule = (id: string) => call(api.DELETE('/api/admin/policies/rules/{id}', { params: { path: { id } } }));
export const deleteArea = (id: string) => call(api.DELETE('/api/admin/policies/areas/{id}', { params: { path: { id } } }));
export const usePreview = () => $api.useMutation('post', '/api/admin/policies/preview');

/** What the caller may still book in the ISO week (`week` like 2031-W02; undefined: this week). */
export const useAllowance = (week?: string, departmentId?: string) =>
  $api.useQuery('get', '/api/self/allowance', { params: { query: { ...(week ? { week } : {}), ...(departmentId ? { departmentId } : {}) } } });

export const LIMIT_LABELS: Record<PolicyRule['limit']['kind'], string> = {
  BOOKING_WINDOW: 'Booking window (days ahead)',
  MIN_DURATION: 'Shortest booking (minutes)',
  MAX_DURATION: 'Longest booking (minutes)',
  GRANULARITY: 'Whole days or hours',
  WEEKDAYS_HOURS: 'Weekdays and hours',
  MAX_BOOKINGS: 'Bookings per period',
  MAX_HOURS: 'Booked hours per period',
  MAX_CONCURRENT: 'Upcoming bookings at once',
  CAPACITY: 'Daily capacity',
  CANCEL_LEAD: 'Cancel at least (minutes) before',
  OWN_AREAS_ONLY: "Only in their teams' areas",
};

const PERIOD: Record<string, string> = { DAY: 'a day', WEEK: 'a week', MONTH: 'a month' };

/** A rule's limit in words: "2 a week", "14 days ahead". */
export function describeLimit(limit: PolicyRule['limit']): string {
  switch (limit.kind) {
    case 'BOOKING_WINDOW':
      return `${limit.days} days ahead`;
    case 'MIN_DURATION':
      return `at least ${limit.minutes} min`;
    case 'MAX_DURATION':
      return `at most ${limit.minutes} min`;
    case 'GRANULARITY':
      return limit.unit === 'DAY' ? 'whole days' : 'whole hours';
    case 'WEEKDAYS_HOURS':
      return `${(limit.weekdays ?? []).join(', ')}${limit.from || limit.to ? ` ${limit.from ?? '00:00'}–${limit.to ?? '24:00'}` : ''}`;
    case 'MAX_BOOKINGS':
      return `${limit.count} ${PERIOD[limit.per ?? 'WEEK']}`;
    case 'MAX_HOURS':
      return `${limit.hours} h ${PERIOD[limit.per ?? 'WEEK']}`;
    case 'MAX_CONCURRENT':
      return `${limit.count} at once`;
    case 'CAPACITY':
      return limit.percent !== undefined ? `${limit.percent} % of the desks` : `${limit.count} desks`;
    case 'CANCEL_LEAD':
      return `${limit.minutes} min before`;
    case 'OWN_AREAS_ONLY':
      return "their teams' areas only";
    default:
      return '';
  }
}

/**
 * Which desks an exclusive area keeps the caller out of in a window (docs/policies.md#why-a-desk-is-not-bookable):
 * read from `GET /api/self/allowance` (the same query as the allowance panel, so no second request).
 * When booking for someone else the person's teams decide, not the caller's: then nothing is marked.
 */
export function useReservedDesks(start: string, end: string, forSomeoneElse: boolean): (desk: DeskPlace) => string | undefined {
  const allowance = useAllowance();
  const closed = forSomeoneElse ? [] : (allowance.data?.closedAreas ?? []);
  if (closed.length === 0) return () => undefined;
  const weekdays = weekdaysOf(start, end);
  return (desk) => reservedReason(closed, desk, weekdays);
}
