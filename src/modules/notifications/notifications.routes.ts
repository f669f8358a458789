import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import {
  NotificationPreferences,
  NotificationPreferencesBody,
  PushKey,
  PushSubscription,
  PushSubscriptionBody,
  PushSubscriptionParams,
  PushSubscriptions,
} from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

const TAGS = ['Notifications'];

/** Push reminders and the switches of notifications (docs/notifications.md). */
export const notificationsRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationsService }> = async (app, { notifications }) => {
  app.get(
    '/api/push/key',
    {
      schema: {
        tags: TAGS,
        summary: "The server's push key",
        description: "The VAPID public key a browser subscribes with (pushManager.subscribe's applicationServerKey); made at the server's first start.",
        response: { 200: PushKey, ...problemResponses() },
      },
    },
    async () => notifications.publicKey(),
  );

  app.get(
    '/api/self/push-subscriptions',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's push subscriptions",
        description: 'The browsers the caller turned push on in, oldest first.',
        response: { 200: PushSubscriptions, ...problemResponses() },
      },
    },
    async (request) => notifications.subscriptions(request.caller),
  );

  app.post(
    '/api/self/push-subscriptions',
    {
      schema: {
        tags: TAGS,
        summary: 'Turn push on in a browser',
        description:
          "Stores the browser's PushSubscription (its toJSON()). The endpoint must be https on a push service the server admits (PUSH_ENDPOINT_HOSTS), the keys of the sizes RFC 8291 gives; else 400 naming the field. The same endpoint again (this browser, subscribed anew or by another person signed in there) replaces the earlier one. At most PUSH_SUBSCRIPTIONS_PER_USER per person (409 TOO_MANY_PUSH_SUBSCRIPTIONS).",
        body: PushSubscriptionBody,
        response: { 200: PushSubscription, ...problemResponses(409) },
      },
    },
    async (request) => notifications.subscribe(request.caller, request.body),
  );

  app.delete(
    '/api/self/push-subscriptions/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Turn push off in a browser',
        description: 'Forgets the subscription; pushes queued for it are not sent.',
        params: PushSubscriptionParams,
        response: { 204: NoContent, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await notifications.unsubscribe(request.caller, request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/self/notification-preferences',
    {
      schema: {
        tags: TAGS,
        summary: "The caller's notification switches",
        description:
          'Every event with its push and mail switch. Defaults: mail on (as before push), push on (nothing is pushed until a browser subscribed); mail is null for an event that has no mail.',
        response: { 200: NotificationPreferences, ...problemResponses() },
      },
    },
    async (request) => notifications.preferences(request.caller),
  );

  app.put(
    '/api/self/notification-preferences',
    {
      schema: {
        tags: TAGS,
        summary: "Set the caller's notification switches",
        description: 'Sets the switches given (the others stay) and answers all of them. A mail switch for an event without a mail is 400.',
        body: NotificationPreferencesBody,
        response: { 200: NotificationPreferences, ...problemResponses() },
      },
    },
    async (request) => notifications.setPreferences(request.caller, request.body),
  );
};
