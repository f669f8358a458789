import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** Favourite desks, home office and default window, "Book my usual", near my team (docs/favourites.md). */

export const useFavourites = () => $api.useQuery('get', '/api/self/favourite-desks');
export const useStar = () => $api.useMutation('put', '/api/self/favourite-desks/{deskId}', { meta: { invalidates: STALE_AFTER.favourites } });
export const useUnstar = () => $api.useMutation('delete', '/api/self/favourite-desks/{deskId}', { meta: { invalidates: STALE_AFTER.favourites } });

export const useBookingDefaults = () => $api.useQuery('get', '/api/self/booking-defaults');
export const useSaveBookingDefaults = () => $api.useMutation('put', '/api/self/booking-defaults', { meta: { invalidates: STALE_AFTER.bookingDefaults } });

/** The coming week's proposal, read when the dialog opens. */
export const useUsualPreview = () => $api.useQuery('get', '/api/self/usual', {}, { staleTime: 0 });
export const useBookUsual = () => $api.useMutation('post', '/api/self/usual', { meta: { invalidates: STALE_AFTER.usual } });

/** Free desks near the caller's teams for a window (docs/favourites.md#book-near-my-team); read only while asked for. */
export const useNearTeam = (startTime: string, endTime: string, enabled: boolean) =>
  $api.useQuery('get', '/api/self/near-my-team', { params: { query: { startTime, endTime, limit: 200 } } }, { enabled });
