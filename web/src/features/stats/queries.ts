import { $api } from '../../api/client.js';

/** The statistics (admins). */
export const useStatistics = () => $api.useQuery('get', '/api/stats');
