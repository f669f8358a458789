import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** The organisation's settings (docs/people.md#the-organisations-settings). */
export const useOrganisationSettings = () => $api.useQuery('get', '/api/organisation/settings');
// The default language changes the language in effect of everyone who chose none, the admin included.
export const useSaveOrganisationSettings = () =>
  $api.useMutation('patch', '/api/organisation/settings', { meta: { invalidates: [...STALE_AFTER.privacy, '/api/self/preferences'] } });
