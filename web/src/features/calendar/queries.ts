import { $api } from '../../api/client.js';

/**
 * The caller's calendar feed and calendar settings (docs/behaviour.md#calendars). Whether a feed
 * exists is all the service can say afterwards: the URL is answered once, by the create call.
 */
const CALENDAR = ['/api/self/calendar-feed', '/api/self/calendar-settings'] as const;

export const useFeedStatus = () => $api.useQuery('get', '/api/self/calendar-feed');

/** Creates or replaces the feed URL; its answer (`data.url`) is the only time the URL is seen. */
export const useReplaceFeed = () => $api.useMutation('post', '/api/self/calendar-feed', { meta: { invalidates: CALENDAR } });

export const useCalendarSettings = () => $api.useQuery('get', '/api/self/calendar-settings');

export const useSaveCalendarSettings = () => $api.useMutation('put', '/api/self/calendar-settings', { meta: { invalidates: CALENDAR } });
