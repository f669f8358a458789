import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import type { Reservation } from '../../api/types.js';

/** Query members of GET /api/reservation (docs/api.md#paging). */
type ReservationQuery = { userId?: string; from?: string; to?: string; page?: number; size?: number; sort?: string[] };

/** A page of reservations; the previous page stays shown while the next one loads. */
export const useReservations = (query: ReservationQuery) =>
  $api.useQuery('get', '/api/reservation', { params: { query } }, { placeholderData: keepPreviousData });

/**
 * Books one desk (POST /api/reservation): the one booking mutation, used by the search results
 * and by the floor map alike, so both make the same things stale (STALE_AFTER.reservations: lists,
 * free desks, the floor map's availability, attendance, statistics).
 */
export const useBookDesk = (options: { onMutate?: () => void } = {}) =>
  $api.useMutation('post', '/api/reservation', { meta: { invalidates: STALE_AFTER.reservations }, onMutate: options.onMutate });

/** The people the caller may book for (docs/policies.md#booking-for-someone-else): empty for most. */
export const useBookablePeople = (search: string) =>
  $api.useQuery('get', '/api/self/book-for', { params: { query: search ? { search } : {} } }, { placeholderData: keepPreviousData });

/** The caller's reservations someone else booked, and who. */
export const useBookedByOthers = () => $api.useQuery('get', '/api/self/booked-by-others');

/** Moves a reservation to another time. */
export const useChangeReservation = (onDone: (updated: Reservation) => void) =>
  $api.useMutation('put', '/api/reservation/{id}', { meta: { invalidates: STALE_AFTER.reservations }, onSuccess: onDone });

/** Cancels a reservation. */
export const useCancelReservation = (onDone: () => void) =>
  $api.useMutation('delete', '/api/reservation/{id}', { meta: { invalidates: STALE_AFTER.reservations }, onSuccess: onDone });
