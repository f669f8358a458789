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

/** The caller's language preference (docs/i18n.md#choosing-the-language). */
export const usePreferences = (enabled = true) => $api.useQuery('get', '/api/self/preferences', undefined, { enabled });

/** Saves the caller's language; the page switches to it once saved. */
export const useSavePreferences = () => $api.useMutation('put', '/api/self/preferences');
