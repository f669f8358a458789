import { keepPreviousData } from '@tanstack/react-query';
import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import type { paths } from '../../api/schema.js';

/** Closures and holidays (docs/policies.md#closures-and-holidays): reads and writes. */

const PAGE_SIZE = 20;
/** Affected reservations shown per page of a preview. */
export const PREVIEW_PAGE_SIZE = 10;

export type ClosureInput = NonNullable<paths['/api/closures/preview']['post']['requestBody']>['content']['application/json'];
export type CreateClosure = NonNullable<paths['/api/closures']['post']['requestBody']>['content']['application/json'];

/** The closures with a day today or later, a page at a time. */
export const useClosures = (page: number) =>
  $api.useQuery('get', '/api/closures', { params: { query: { page, size: PAGE_SIZE, upcoming: true } } }, { placeholderData: keepPreviousData });

/** The days a closure would close and the reservations on them; nothing is written. */
export const useClosurePreview = () => $api.useMutation('post', '/api/closures/preview');

export const useCreateClosure = (onSuccess: () => void) =>
  $api.useMutation('post', '/api/closures', { meta: { invalidates: STALE_AFTER.closures }, onSuccess });

/** Deletes a closure (for DeleteDialog, which invalidates STALE_AFTER.closures). */
export const deleteClosure = (id: string) => call(api.DELETE('/api/closures/{id}', { params: { path: { id } } }));

/** The closed days of one date, for everyone: Find a desk says why a day is closed. */
export const useClosedDays = (date: string) =>
  $api.useQuery(
    'get',
    '/api/closures/days',
    { params: { query: { from: date, to: date } } },
    { enabled: /^\d{4}-\d{2}-\d{2}$/.test(date), staleTime: 5 * 60_000 },
  );

// Public holidays (docs/policies.md#public-holidays).

export type HolidayImportInput = NonNullable<paths['/api/closures/holidays/preview']['post']['requestBody']>['content']['application/json'];

/** Countries, states and regions with holidays; it changes only with the service's version. */
export const useHolidayCatalogue = (enabled: boolean) =>
  $api.useQuery('get', '/api/closures/holidays/regions', {}, { enabled, staleTime: Infinity, gcTime: Infinity });

/** The holidays of the years, what an import would do with each, and the reservations on the new days. */
export const useHolidayPreview = () => $api.useMutation('post', '/api/closures/holidays/preview');

export const useImportHolidays = () => $api.useMutation('post', '/api/closures/holidays', { meta: { invalidates: STALE_AFTER.closures } });
