import type { Database } from '../../db/client.js';
import { mailMessage } from '../../infrastructure/mail/mail-kind.js';
import type { Mail } from '../../infrastructure/mail/mailer.js';
import { enqueue, type OutboxMessage } from '../../infrastructure/outbox/outbox.js';
import { NotificationsRepository } from './notifications.repository.js';
import type { Channel, NotificationEvent } from './notifications.schemas.js';

/** The outbox kind of a push: one row per browser (subscription), grouped by its owner. */
export const PUSH_KIND = 'push';

/**
 * What a push says (docs/notifications.md#what-a-push-says): a title, one line, the page of the app
 * it opens and a tag (a newer push with the same tag replaces the older on the device). No names,
 * no e-mail addresses, no ids beyond the reservation's in the link; never a secret.
 */
export interface PushMessage {
  title: string;
  body: string;
  /** A path of the web app (starts with /): the service worker opens it on click. */
  url: string;
  tag: string;
}

/** The payload of a push row: which browser, and what to say. */
export interface PushPayload extends PushMessage {
  subscriptionId: string;
  event: NotificationEvent;
}

/** One thing to tell one person, on the channels their switches allow. */
export interface Notice {
  userId: string;
  event: NotificationEvent;
  push: PushMessage;
  /** The event's mail as before push, when mail can go out (SMTP set); sent unless the person switched it off. */
  mail?: Mail;
}

/** A switch's value without a row: on (mail as before push; push once a browser subscribed) (docs/notifications.md#switches). */
export const DEFAULT_ENABLED = true;

/**
 * Queues each notice on the channels its person has on, with `tx`: the writing transaction, so a
 * notice exists exactly when what it tells of was committed (docs/architecture.md#the-outbox). A
 * mail is one `mail` row as before; a push is one `push` row per subscription of the person at
 * this moment (docs/notifications.md#delivery). The switches and subscriptions are read in two
 * statements for the whole batch.
 */
export async function queueNotices(tx: Database, notices: Notice[]): Promise<void> {
  if (notices.length === 0) return;
  const repository = new NotificationsRepository(tx);
  const userIds = [...new Set(notices.map((notice) => notice.userId))];
  const events = [...new Set(notices.map((notice) => notice.event))];
  const switches = new Map<string, boolean>();
  for (const row of await repository.preferencesOf(userIds, events)) switches.set(`${row.userId} ${row.event} ${row.channel}`, row.enabled);
  const on = (notice: Notice, channel: Channel) => switches.get(`${notice.userId} ${notice.event} ${channel}`) ?? DEFAULT_ENABLED;

  const pushUsers = [...new Set(notices.filter((notice) => on(notice, 'push')).map((notice) => notice.userId))];
  const browsers = new Map<string, string[]>();
  for (const row of await repository.subscriptionIdsOf(pushUsers)) browsers.set(row.userId, [...(browsers.get(row.userId) ?? []), row.id]);

  const messages: OutboxMessage[] = [];
  for (const notice of notices) {
    if (notice.mail && on(notice, 'mail')) messages.push(mailMessage(notice.mail));
    if (!on(notice, 'push')) continue;
    for (const subscriptionId of browsers.get(notice.userId) ?? []) {
      const payload: PushPayload = { subscriptionId, event: notice.event, ...notice.push };
      messages.push({ kind: PUSH_KIND, groupKey: notice.userId, payload: { ...payload } });
    }
  }
  await enqueue(tx, messages);
}
