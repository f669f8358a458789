import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** The caller's delegates (docs/policies.md#booking-for-someone-else). */
export const useDelegates = () => $api.useQuery('get', '/api/self/delegates');
export const useAddDelegate = () => $api.useMutation('post', '/api/self/delegates', { meta: { invalidates: STALE_AFTER.delegates } });
export const useRemoveDelegate = () => $api.useMutation('delete', '/api/self/delegates/{userId}', { meta: { invalidates: STALE_AFTER.delegates } });
