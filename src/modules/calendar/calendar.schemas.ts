import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../shared/schemas.js';

export const FeedParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The secret token of the feed URL (as answered by POST /api/self/calendar-feed).' }),
});

export const CalendarFeedStatus = Type.Object(
  {
    exists: Type.Boolean({ description: 'Whether the caller has a feed URL (the URL itself is shown only when it is created).' }),
    createdAt: Nullable(Timestamp('When the current feed URL was created; null without one.')),
  },
  { title: 'CalendarFeedStatus' },
);

export const CalendarFeedCreated = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description: 'The private feed URL to subscribe to. Shown only in this answer: the service keeps only a hash of its token.',
    }),
    createdAt: Timestamp(),
  },
  { title: 'CalendarFeedCreated' },
);

export const CalendarSettings = Type.Object(
  {
    invitationMails: Type.Boolean({
      description: 'Whether booking, changing and cancelling a reservation mails the owner a calendar invitation or cancellation (default true).',
    }),
  },
  { title: 'CalendarSettings', additionalProperties: false },
);
