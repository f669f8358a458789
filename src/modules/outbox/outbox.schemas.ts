import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { Nullable, Timestamp } from '../../shared/schemas.js';

export const OutboxStatus = Type.Union([Type.Literal('pending'), Type.Literal('sending'), Type.Literal('sent'), Type.Literal('dead')], {
  description:
    'pending: waiting to be sent (at nextAttemptAt, or at once); sending: claimed by a server process; sent: went out (kept MAIL_RETENTION); dead: given up after its tries (kept OUTBOX_DEAD_RETENTION; an admin may retry it).',
});

/** A message of the outbox as an admin sees it: what, to whom, how it went; never what it carries. */
export const OutboxMessage = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    kind: Type.String({
      description: 'mail (a release mail), password.link (a reset or account link), calendar.invitation or push (docs/notifications.md#delivery).',
    }),
    recipient: Type.String({ description: "The person's e-mail address (as it is now), or the address the message was asked for." }),
    status: OutboxStatus,
    attempts: Type.Integer({ minimum: 0, description: 'Tries so far.' }),
    lastError: Nullable(Type.String({ description: 'Why the last try failed (a short sentence, no content of the message).' })),
    createdAt: Timestamp('When it was queued.'),
    nextAttemptAt: Nullable(Timestamp('When a pending message is tried next (null: at once).')),
    sentAt: Nullable(Timestamp()),
    deadAt: Nullable(Timestamp('When it was given up.')),
  },
  { title: 'OutboxMessage' },
);
export type OutboxMessageDto = Static<typeof OutboxMessage>;

export const OutboxPage = Page(OutboxMessage, 'PageOfOutboxMessage');

const countOf = (status: string) => Type.Integer({ minimum: 0, description: `Messages ${status} now.` });

/** How many messages each status holds: what the admin page's tabs count. */
export const OutboxCounts = Type.Object(
  { pending: countOf('pending'), sending: countOf('sending'), sent: countOf('sent (kept MAIL_RETENTION)'), dead: countOf('dead (kept OUTBOX_DEAD_RETENTION)') },
  { title: 'OutboxCounts' },
);
export type OutboxCountsDto = Static<typeof OutboxCounts>;

export const OutboxListQuery = Type.Object({
  ...pageQueryProperties,
  status: Type.Optional(OutboxStatus),
});
export type OutboxListQuery = Static<typeof OutboxListQuery>;

export const OutboxIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The message id.' }) });
