import { $api } from '../../api/client.js';

/** Push subscriptions and the switches per event and channel (docs/notifications.md). */
const NOTIFICATIONS = ['/api/self/push-subscriptions', '/api/self/notification-preferences'] as const;

export const usePushKey = () => $api.useQuery('get', '/api/push/key', {}, { staleTime: Infinity });
export const usePushSubscriptions = () => $api.useQuery('get', '/api/self/push-subscriptions');
export const useSubscribe = () => $api.useMutation('post', '/api/self/push-subscriptions', { meta: { invalidates: NOTIFICATIONS } });
export const useUnsubscribe = () => $api.useMutation('delete', '/api/self/push-subscriptions/{id}', { meta: { invalidates: NOTIFICATIONS } });
export const useNotificationPreferences = () => $api.useQuery('get', '/api/self/notification-preferences');
export const useSaveNotificationPreferences = () =>
  $api.useMutation('put', '/api/self/notification-preferences', { meta: { invalidates: ['/api/self/notification-preferences'] } });
