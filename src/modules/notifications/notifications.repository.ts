import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import webpush from 'web-push';
import type { Database } from '../../db/client.js';
import { notificationPreferences, pushSubscriptions, pushVapidKeys, users } from '../../db/schema.js';
import type { Channel, NotificationEvent } from './notifications.schemas.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface SubscriptionRow {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAt: Date;
}

export interface PreferenceRow {
  userId: string;
  event: NotificationEvent;
  channel: Channel;
  enabled: boolean;
}

/** The one writer of push_vapid_keys, push_subscriptions and notification_preferences (docs/notifications.md). */
export class NotificationsRepository {
  constructor(private readonly db: Database) {}

  /**
   * The server's VAPID key pair, made at first start: every process offers a fresh pair with one
   * INSERT … ON CONFLICT DO NOTHING on the one row and then reads the row, so of two processes
   * starting at once both use whichever pair was committed first (docs/notifications.md#keys).
   */
  async vapidKeys(): Promise<VapidKeys> {
    const [existing] = await this.db.select().from(pushVapidKeys).where(eq(pushVapidKeys.id, 1));
    if (existing) return { publicKey: existing.publicKey, privateKey: existing.privateKey };
    const fresh = webpush.generateVAPIDKeys();
    await this.db.insert(pushVapidKeys).values({ id: 1, publicKey: fresh.publicKey, privateKey: fresh.privateKey }).onConflictDoNothing();
    const [row] = await this.db.select().from(pushVapidKeys).where(eq(pushVapidKeys.id, 1));
    return { publicKey: row!.publicKey, privateKey: row!.privateKey };
  }

  async subscriptionsOf(userId: string): Promise<SubscriptionRow[]> {
    return this.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
  }

  async subscription(id: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
    return row;
  }

  /** The subscriptions of these people while their account is enabled (for queueing one push per browser). */
  async subscriptionIdsOf(userIds: string[]): Promise<Array<{ id: string; userId: string }>> {
    if (userIds.length === 0) return [];
    return this.db
      .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.userId))
      .where(and(inArray(pushSubscriptions.userId, userIds), eq(users.enabled, true)))
      .orderBy(asc(pushSubscriptions.createdAt));
  }

  /**
   * Stores a subscription for `userId` unless they hold `max` others already; an endpoint known
   * before (this browser, perhaps of someone else who signed in there earlier) moves to `userId`
   * with its new keys. Serialised per person by locking their user row, so two requests at once
   * cannot together pass the cap. Answers the row, or 'full'.
   */
  async subscribe(userId: string, input: { endpoint: string; p256dh: string; auth: string }, max: number, now: Date): Promise<SubscriptionRow | 'full'> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [held] = await tx
        .select({ total: count() })
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), sql`${pushSubscriptions.endpoint} <> ${input.endpoint}`));
      if ((held?.total ?? 0) >= max) return 'full';
      const [row] = await tx
        .insert(pushSubscriptions)
        .values({ userId, endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth, createdAt: now })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { userId, p256dh: input.p256dh, auth: input.auth, createdAt: now },
        })
        .returning();
      return row!;
    });
  }

  async unsubscribe(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.id, id)))
      .returning({ id: pushSubscriptions.id });
    return rows.length > 0;
  }

  /** Forgets a subscription the push service called gone (404/410); one renewed since with another endpoint stays. */
  async forget(id: string, endpoint: string): Promise<void> {
    await this.db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.endpoint, endpoint)));
  }

  async preferencesOf(userIds: string[], events?: NotificationEvent[]): Promise<PreferenceRow[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .select({
        userId: notificationPreferences.userId,
        event: notificationPreferences.event,
        channel: notificationPreferences.channel,
        enabled: notificationPreferences.enabled,
      })
      .from(notificationPreferences)
      .where(and(inArray(notificationPreferences.userId, userIds), events === undefined ? undefined : inArray(notificationPreferences.event, events)));
    return rows as PreferenceRow[];
  }

  async setPreferences(userId: string, switches: Array<{ event: NotificationEvent; channel: Channel; enabled: boolean }>, now: Date): Promise<void> {
    if (switches.length === 0) return;
    await this.db
      .insert(notificationPreferences)
      .values(switches.map((entry) => ({ userId, ...entry, updatedAt: now })))
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.event, notificationPreferences.channel],
        set: { enabled: sql`excluded.enabled`, updatedAt: sql`excluded.updated_at` },
      });
  }
}
