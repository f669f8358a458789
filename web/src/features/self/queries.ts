import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** The caller's own profile, password and signed-in devices. */

export const useSaveProfile = () => $api.useMutation('put', '/api/self', { meta: { invalidates: STALE_AFTER.users } });

/** The caller's sessions (signed-in devices). */
export const useMySessions = (userId: string) => $api.useQuery('get', '/api/users/{id}/sessions', { params: { path: { id: userId }, query: { size: 50 } } });

/** Signs a device out. */
export const useEndSession = (onSettled: () => void) =>
  $api.useMutation('delete', '/api/sessions/{id}', { meta: { invalidates: STALE_AFTER.sessions }, onSettled });

/** Changes the caller's own password (their other sessions end). */
export const useChangeOwnPassword = (onSuccess: () => void) =>
  $api.useMutation('put', '/api/self/password', { meta: { invalidates: STALE_AFTER.sessions }, onSuccess });
