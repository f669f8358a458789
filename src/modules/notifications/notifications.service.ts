import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid, notFound } from '../../shared/errors.js';
import type { Caller } from '../../identity/caller.js';
import { toSubscriptionDto } from './notifications.mappers.js';
import { endpointRefusal, type EndpointPolicy } from './notifications.push.js';
import { DEFAULT_ENABLED } from './notifications.queue.js';
import { NotificationsRepository } from './notifications.repository.js';
import {
  MAIL_EVENTS,
  NOTIFICATION_EVENTS,
  type Channel,
  type NotificationEvent,
  type NotificationPreferencesBody,
  type NotificationPreferencesDto,
  type PushSubscriptionBody,
  type PushSubscriptionDto,
} from './notifications.schemas.js';

/** Bytes of the decoded keys (RFC 8291: an uncompressed P-256 point and a 16-byte secret). */
const P256DH_BYTES = 65;
const AUTH_BYTES = 16;

export interface NotificationsSettings {
  publicKey: string;
  policy: EndpointPolicy;
  /** PUSH_SUBSCRIPTIONS_PER_USER. */
  perUser: number;
}

/**
 * A person's push subscriptions and switches (docs/notifications.md): only the person reads and
 * changes their own.
 */
export class NotificationsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: NotificationsSettings,
  ) {}

  private get repository() {
    return new NotificationsRepository(this.db);
  }

  publicKey(): { publicKey: string } {
    return { publicKey: this.settings.publicKey };
  }

  async subscriptions(caller: Caller): Promise<PushSubscriptionDto[]> {
    return (await this.repository.subscriptionsOf(caller.user.id)).map(toSubscriptionDto);
  }

  /** Stores the browser's subscription (docs/notifications.md#threat-model: what is checked); the same endpoint again replaces its keys. */
  async subscribe(caller: Caller, body: PushSubscriptionBody): Promise<PushSubscriptionDto> {
    const refusal = endpointRefusal(body.endpoint, this.settings.policy);
    if (refusal) throw invalid('endpoint', refusal);
    const p256dh = Buffer.from(body.keys.p256dh, 'base64url');
    if (p256dh.length !== P256DH_BYTES || p256dh[0] !== 0x04) throw invalid('keys.p256dh', 'must be an uncompressed P-256 public key (65 bytes, base64url)');
    if (Buffer.from(body.keys.auth, 'base64url').length !== AUTH_BYTES) throw invalid('keys.auth', 'must be 16 bytes, base64url');
    const row = await this.repository.subscribe(
      caller.user.id,
      { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth },
      this.settings.perUser,
      this.clock.now(),
    );
    if (row === 'full') {
      throw new AppError('TOO_MANY_PUSH_SUBSCRIPTIONS', `Push may be on in at most ${this.settings.perUser} browsers; turn it off in one first`);
    }
    return toSubscriptionDto(row);
  }

  async unsubscribe(caller: Caller, id: string): Promise<void> {
    if (!(await this.repository.unsubscribe(caller.user.id, id))) throw notFound('Push subscription', id);
  }

  /** Every event with its two switches, defaults filled in (docs/notifications.md#switches). */
  async preferences(caller: Caller): Promise<NotificationPreferencesDto> {
    const stored = new Map<string, boolean>();
    for (const row of await this.repository.preferencesOf([caller.user.id])) stored.set(`${row.event} ${row.channel}`, row.enabled);
    const value = (event: NotificationEvent, channel: Channel) => stored.get(`${event} ${channel}`) ?? DEFAULT_ENABLED;
    return {
      events: NOTIFICATION_EVENTS.map((event) => ({ event, push: value(event, 'push'), mail: MAIL_EVENTS.has(event) ? value(event, 'mail') : null })),
    };
  }

  /** Sets the switches given (others stay); a mail switch for an event without a mail is 400 naming it. */
  async setPreferences(caller: Caller, body: NotificationPreferencesBody): Promise<NotificationPreferencesDto> {
    const switches: Array<{ event: NotificationEvent; channel: Channel; enabled: boolean }> = [];
    body.events.forEach((entry, index) => {
      if (entry.mail !== undefined && !MAIL_EVENTS.has(entry.event)) throw invalid(`events.${index}.mail`, `the event ${entry.event} has no mail`);
      if (entry.push !== undefined) switches.push({ event: entry.event, channel: 'push', enabled: entry.push });
      if (entry.mail !== undefined) switches.push({ event: entry.event, channel: 'mail', enabled: entry.mail });
    });
    await this.repository.setPreferences(caller.user.id, dedupe(switches), this.clock.now());
    return this.preferences(caller);
  }
}

/** The last switch given for each event and channel (one statement may not upsert a row twice). */
function dedupe<T extends { event: string; channel: string }>(switches: T[]): T[] {
  return [...new Map(switches.map((entry) => [`${entry.event} ${entry.channel}`, entry])).values()];
}
