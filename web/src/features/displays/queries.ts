import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** Lobby displays of an office (docs/people.md#the-lobby-display). */
export const useDisplays = (departmentId: string) =>
  $api.useQuery('get', '/api/departments/{departmentId}/displays', { params: { path: { departmentId } } }, { enabled: departmentId !== '' });
export const useCreateDisplay = () => $api.useMutation('post', '/api/departments/{departmentId}/displays', { meta: { invalidates: STALE_AFTER.displays } });
export const useRevokeDisplay = () => $api.useMutation('delete', '/api/displays/{id}', { meta: { invalidates: STALE_AFTER.displays } });
