import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { translate } from '../../lib/translate.js';
import { reservedReason, weekdayName, weekdaysOf, type DeskPlace } from './reserved.js';
import type { Allowance, PolicyArea, PolicyAreaInput, PolicyRule, PolicyRuleInput } from '../../api/types.js';

/** Booking policies (docs/policies.md): rules and areas for admins, the preview, the caller's allowance. */

export type { Allowance, PolicyArea, PolicyAreaInput, PolicyRule, PolicyRuleInput };
export { WEEKDAYS, weekdayList, weekdayOrder, weekdayWord } from './reserved.js';

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

type LimitKind = PolicyRule['limit']['kind'];

/** The kinds of rule, in the order the form offers them. */
export const LIMIT_KINDS: LimitKind[] = [
  'BOOKING_WINDOW',
  'MIN_DURATION',
  'MAX_DURATION',
  'GRANULARITY',
  'WEEKDAYS_HOURS',
  'MAX_BOOKINGS',
  'MAX_HOURS',
  'MAX_CONCURRENT',
  'CAPACITY',
  'CANCEL_LEAD',
  'OWN_AREAS_ONLY',
];

/** A kind of rule's name in the language in use ("Bookings per period"); an unknown kind as it is. */
export const limitLabel = (kind: string): string => ((LIMIT_KINDS as string[]).includes(kind) ? translate(`policies:kind.${kind}`) : kind);

/** A rule's limit in words, one message per kind: "2 a week", "14 days ahead". */
export function describeLimit(limit: PolicyRule['limit']): string {
  const per = limit.per ?? 'WEEK';
  switch (limit.kind) {
    case 'BOOKING_WINDOW':
      return translate('policies:limit.BOOKING_WINDOW', { count: limit.days });
    case 'MIN_DURATION':
    case 'MAX_DURATION':
    case 'CANCEL_LEAD':
      return translate(`policies:limit.${limit.kind}`, { count: limit.minutes });
    case 'GRANULARITY':
      return translate('policies:limit.GRANULARITY', { unit: limit.unit ?? 'DAY' });
    case 'WEEKDAYS_HOURS':
      return translate('policies:limit.WEEKDAYS_HOURS', {
        days: (limit.weekdays ?? []).map((code) => weekdayName(code, 'short')).join(', '),
        times: limit.from || limit.to ? 'yes' : 'no',
        from: limit.from ?? '00:00',
        to: limit.to ?? '24:00',
      });
    case 'MAX_BOOKINGS':
      return translate('policies:limit.MAX_BOOKINGS', { count: limit.count, per });
    case 'MAX_HOURS':
      return translate('policies:limit.MAX_HOURS', { count: limit.hours, per });
    case 'MAX_CONCURRENT':
      return translate('policies:limit.MAX_CONCURRENT', { count: limit.count });
    case 'CAPACITY':
      return translate('policies:limit.CAPACITY', { mode: limit.percent !== undefined ? 'percent' : 'desks', percent: limit.percent, count: limit.count });
    case 'OWN_AREAS_ONLY':
      return translate('policies:limit.OWN_AREAS_ONLY');
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
  // The reasons are this feature's messages: their namespace loads with the page that shows them.
  useTranslation('policies');
  const allowance = useAllowance();
  const closed = forSomeoneElse ? [] : (allowance.data?.closedAreas ?? []);
  if (closed.length === 0) return () => undefined;
  const weekdays = weekdaysOf(start, end);
  return (desk) => reservedReason(closed, desk, weekdays);
}
