import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';

/**
 * The events a person may be told of (docs/notifications.md#events). Each has a push; those with a
 * mail before push existed keep it, switchable (MAIL_EVENTS).
 */
export const NOTIFICATION_EVENTS = ['check-in-open', 'released', 'approval-decided', 'booked-by-others'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
/** The events that also have a mail (the release, an approval's outcome, a booking by someone else). */
export const MAIL_EVENTS: ReadonlySet<NotificationEvent> = new Set(['released', 'approval-decided', 'booked-by-others']);
export const CHANNELS = ['push', 'mail'] as const;
export type Channel = (typeof CHANNELS)[number];

const Event = Type.Union(
  NOTIFICATION_EVENTS.map((event) => Type.Literal(event)),
  {
    description:
      'check-in-open: check-in of my reservation opened; released: it was released, nobody checked in; approval-decided: my request was approved, rejected or expired; booked-by-others: someone else booked, changed or cancelled a reservation of mine.',
  },
);

export const PushKey = Type.Object(
  {
    publicKey: Type.String({
      description: "The server's VAPID public key (P-256, uncompressed point, base64url): pushManager.subscribe's applicationServerKey.",
    }),
  },
  { title: 'PushKey' },
);

/** base64url without padding. */
const BASE64URL = '^[A-Za-z0-9_-]+$';
export const ENDPOINT_MAX = 2048;

export const PushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      maxLength: ENDPOINT_MAX,
      description: "The push service's URL for this browser (PushSubscription.endpoint): https, on a push service the server admits (PUSH_ENDPOINT_HOSTS).",
    }),
    keys: Type.Object(
      {
        p256dh: Type.String({ minLength: 80, maxLength: 100, pattern: BASE64URL, description: "The browser's P-256 public key (65 bytes, base64url)." }),
        auth: Type.String({ minLength: 16, maxLength: 40, pattern: BASE64URL, description: 'The authentication secret (16 bytes, base64url).' }),
      },
      { additionalProperties: false },
    ),
    expirationTime: Type.Optional(Nullable(Type.Number({ description: 'As the browser gives it; ignored.' }))),
  },
  { additionalProperties: false },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

export const PushSubscription = Type.Object(
  {
    id: Uuid(),
    endpoint: Type.String({ description: 'The push service URL (the browser compares it with its own subscription).' }),
    createdAt: Timestamp('When push was turned on in this browser.'),
  },
  { title: 'PushSubscription' },
);
export type PushSubscriptionDto = Static<typeof PushSubscription>;
export const PushSubscriptions = Type.Array(PushSubscription, { maxItems: 100 });

export const NotificationPreference = Type.Object(
  {
    event: Event,
    push: Type.Boolean({ description: 'Push to every browser with push turned on (default true: nothing is pushed until one is).' }),
    mail: Nullable(Type.Boolean({ description: 'The mail of this event (default true, as before push); null: the event has no mail.' })),
  },
  { title: 'NotificationPreference' },
);
export type NotificationPreferenceDto = Static<typeof NotificationPreference>;

export const NotificationPreferences = Type.Object(
  { events: Type.Array(NotificationPreference, { maxItems: NOTIFICATION_EVENTS.length }) },
  { title: 'NotificationPreferences' },
);
export type NotificationPreferencesDto = Static<typeof NotificationPreferences>;

export const NotificationPreferencesBody = Type.Object(
  {
    events: Type.Array(
      Type.Object(
        {
          event: Event,
          push: Type.Optional(Type.Boolean()),
          mail: Type.Optional(Type.Boolean({ description: 'Only for an event that has a mail.' })),
        },
        { additionalProperties: false },
      ),
      { maxItems: NOTIFICATION_EVENTS.length * 2 },
    ),
  },
  { additionalProperties: false },
);
export type NotificationPreferencesBody = Static<typeof NotificationPreferencesBody>;

export const PushSubscriptionParams = Type.Object({ id: Uuid() });
