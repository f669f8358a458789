import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** Repeating bookings (docs/behaviour.md#recurring-reservations): reads and writes. */

/** A user's series, a page at a time; the previous page stays shown while the next loads. */
export const useMySeries = (userId: string, page: number) =>
  $api.useQuery('get', '/api/reservation/series', { params: { query: { userId, page, size: 10 } } }, { placeholderData: keepPreviousData });

/** One series with its occurrences. */
export const useSeries = (id: string) => $api.useQuery('get', '/api/reservation/series/{id}', { params: { path: { id } } });

/** The dates a series would book, and those already taken (writes nothing). */
export const usePreviewSeries = () => $api.useMutation('post', '/api/reservation/series/preview');

/** Books a series: its occurrences are reservations. */
export const useBookSeries = () => $api.useMutation('post', '/api/reservation/series', { meta: { invalidates: STALE_AFTER.reservations } });

/** Cancels a series from a date on. */
export const useCancelSeries = () => $api.useMutation('delete', '/api/reservation/series/{id}', { meta: { invalidates: STALE_AFTER.reservations } });
