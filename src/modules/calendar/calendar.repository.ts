import { eq, sql, type SQL } from 'drizzle-orm';
import { organisationLanguageSql } from '../organisation/organisation.access.js';
import { queryRows, type Database } from '../../db/client.js';
import { calendarFeeds, calendarSettings } from '../../db/schema.js';
import type { PurgeJob } from '../../infrastructure/housekeeping/housekeeping.js';

/** One event of a feed or a mail: a reservation as calendar_events knows it, the place read live while the desk exists. */
export interface CalendarEventRow {
  reservationId: string;
  startTime: Date;
  endTime: Date;
  location: string;
  deskName: string;
  sequence: number;
  changedAt: Date;
  /** Set once the reservation was deleted (a tombstone, served as STATUS:CANCELLED). */
  cancelledAt: Date | null;
  /** Awaiting approval (docs/policies.md#approvals): served as STATUS:TENTATIVE. */
  tentative: boolean;
  /** Whether an invitation mail carrying it went out (only then is its cancellation mailed). */
  invited?: boolean;
}

export interface FeedWindow {
  /** Events ending after this instant… */
  from: Date;
  /** …and starting before this one. */
  to: Date;
  /** Tombstones of reservations cancelled after this instant. */
  cancelledSince: Date;
  limit: number;
}

export interface MailRecipient {
  email: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  invitationMails: boolean;
  /** The chosen language (user_preferences), else the organisation's; null: the server's default (docs/i18n.md#choosing-the-language). */
  language: string | null;
}

/** Cancelled reservations are remembered this long (docs/behaviour.md#calendar-feed); feeds reach as far back. */
export const TOMBSTONE_RETENTION_MS = 30 * 86_400_000;

const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface RawEvent {
  reservation_id: string;
  start_time: string;
  end_time: string;
  location: string;
  desk_name: string | null;
  sequence: number;
  changed_at: string;
  cancelled_at: string | null;
  tentative: boolean;
  invited?: boolean;
}

/** The place: read live while the desk exists (a renamed room shows at once), else as last seen. */
const locationExpression = sql`case when d.id is null then e.location else concat_ws(' · ', dep.location, dep.building, 'Floor ' || dep.floor, rm.name, d.name) end`;

const eventColumns = sql`e.reservation_id, ${iso(sql`e.start_time`)} as start_time, ${iso(sql`e.end_time`)} as end_time,
  ${locationExpression} as location,
  d.name as desk_name, e.sequence, ${iso(sql`e.changed_at`)} as changed_at, ${iso(sql`e.cancelled_at`)} as cancelled_at, e.tentative`;

const eventJoins = sql`left join desks d on d.id = e.desk_id and e.cancelled_at is null
  left join rooms rm on rm.id = d.room_id
  left join departments dep on dep.id = rm.department_id`;

/** The events of the feed window of `owner` (an id, or `f.user_id` correlated to calendar_feeds f), earliest first, each with its digest line. */
const windowRows = (window: FeedWindow, owner: SQL = sql`f.user_id`) => sql`
  select ${eventColumns}, e.start_time as start_order, e.created_at,
    concat_ws(' ', e.reservation_id, e.start_time, e.end_time, e.sequence, e.changed_at, e.cancelled_at, e.tentative, ${locationExpression}, d.name) as line
  from calendar_events e ${eventJoins}
  where e.user_id = ${owner}
    and e.end_time > ${window.from.toISOString()}::timestamptz and e.start_time < ${window.to.toISOString()}::timestamptz
    and (e.cancelled_at is null or e.cancelled_at > ${window.cancelledSince.toISOString()}::timestamptz)
  order by e.start_time, e.reservation_id
  limit ${window.limit}`;

/** What one statement tells about a feed token: whose it is, and the digest of its events. */
export interface FeedDigest {
  userId: string;
  /** MD5 of the window's lines joined by newlines. */
  digest: string;
  /** The database's time of the read, rounded up to the millisecond (a feed built from this state may show every event created before it). */
  readAt: Date;
  /** Whether an event in the window was created after the feed was last answered with 200 (so fetched_at must move). */
  unseen: boolean;
  /** The owner's chosen language; null: the server's default (docs/i18n.md#mails-and-the-calendar-feed). */
  language: string | null;
}

function toEvent(row: RawEvent): CalendarEventRow {
  return {
    reservationId: row.reservation_id,
    startTime: new Date(row.start_time),
    endTime: new Date(row.end_time),
    location: row.location,
    // A tombstone whose desk is gone still names it: the last part of the place.
    deskName: row.desk_name ?? row.location.split(' · ').at(-1) ?? '',
    sequence: Number(row.sequence),
    changedAt: new Date(row.changed_at),
    cancelledAt: row.cancelled_at === null ? null : new Date(row.cancelled_at),
    tentative: row.tentative === true,
    ...(row.invited === undefined ? {} : { invited: row.invited }),
  };
}

export class CalendarRepository {
  constructor(private readonly db: Database) {}

  /**
   * The token's owner and the digest of what feedEvents() would answer, in one statement on the
   * primary (a credential: docs/deployment.md#with-a-read-replica): MD5 of the lines joined by
   * newlines, computed in the database, so a 304 moves one short row instead of every event.
   * Undefined for an unknown token, and for the token of a disabled person (docs/behaviour.md#calendar-feed).
   */
  async feedDigest(tokenHash: string, window: FeedWindow): Promise<FeedDigest | undefined> {
    const [row] = await queryRows<{ user_id: string; digest: string; read_at: string; unseen: boolean; language: string | null }>(
      this.db,
      sql`select f.user_id, ${iso(sql`(date_trunc('milliseconds', now()) + interval '1 millisecond')`)} as read_at, w.digest, w.newest > coalesce(f.fetched_at, '-infinity') as unseen,
            coalesce((select p.language from user_preferences p where p.user_id = f.user_id), ${organisationLanguageSql}) as language
          from calendar_feeds f join users u on u.id = f.user_id and u.enabled
          cross join lateral (select md5(coalesce(string_agg(ev.line, E'\n' order by ev.start_order, ev.reservation_id), '')) as digest,
            coalesce(max(ev.created_at), '-infinity') as newest from (${windowRows(window)}) ev) w
          where f.token_hash = ${tokenHash}`,
    );
    return row && { userId: row.user_id, digest: row.digest, readAt: new Date(row.read_at), unseen: row.unseen, language: row.language };
  }

  /** The events of `userId`'s feed window, each with `line`, the text the feed's digest is made of. */
  async feedEvents(userId: string, window: FeedWindow): Promise<{ events: CalendarEventRow[]; lines: string[] }> {
    const rows = await queryRows<RawEvent & { line: string }>(this.db, windowRows(window, sql`${userId}::uuid`));
    return { events: rows.map(toEvent), lines: rows.map((row) => row.line) };
  }

  /** The feed was answered with the state read at `readAt`: events created before may be in a calendar app now. */
  async markFetched(userId: string, readAt: Date): Promise<void> {
    await this.db.execute(
      sql`update calendar_feeds set fetched_at = ${readAt.toISOString()}::timestamptz
          where user_id = ${userId}::uuid and (fetched_at is null or fetched_at < ${readAt.toISOString()}::timestamptz)`,
    );
  }

  async events(reservationIds: string[]): Promise<CalendarEventRow[]> {
    if (reservationIds.length === 0) return [];
    const rows = await queryRows<RawEvent>(
      this.db,
      sql`select ${eventColumns}, e.invited_at is not null as invited from calendar_events e ${eventJoins}
          where e.reservation_id in (${sql.join(
            reservationIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
          order by e.start_time, e.reservation_id`,
    );
    return rows.map(toEvent);
  }

  async feedOf(userId: string): Promise<{ createdAt: Date } | undefined> {
    const [row] = await this.db.select({ createdAt: calendarFeeds.createdAt }).from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
    return row;
  }

  /** Stores the user's new token in one upsert: the older one stops working at once. */
  async replaceFeed(userId: string, tokenHash: string, now: Date): Promise<void> {
    await this.db
      .insert(calendarFeeds)
      .values({ userId, tokenHash, createdAt: now })
      .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } });
  }

  async deleteFeed(userId: string): Promise<boolean> {
    const rows = await this.db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId)).returning({ userId: calendarFeeds.userId });
    return rows.length > 0;
  }

  async settingsOf(userId: string): Promise<{ invitationMails: boolean }> {
    const [row] = await this.db.select({ invitationMails: calendarSettings.invitationMails }).from(calendarSettings).where(eq(calendarSettings.userId, userId));
    return { invitationMails: row?.invitationMails ?? true };
  }

  async saveSettings(userId: string, settings: { invitationMails: boolean }, now: Date): Promise<void> {
    await this.db
      .insert(calendarSettings)
      .values({ userId, ...settings, modifiedAt: now })
      .onConflictDoUpdate({ target: calendarSettings.userId, set: { ...settings, modifiedAt: now } });
  }

  async recipient(userId: string): Promise<MailRecipient | undefined> {
    const [row] = await queryRows<{
      email: string;
      first_name: string;
      last_name: string;
      enabled: boolean;
      invitation_mails: boolean;
      language: string | null;
    }>(
      this.db,
      sql`select u.email, u.first_name, u.last_name, u.enabled, coalesce(s.invitation_mails, true) as invitation_mails,
            coalesce(p.language, ${organisationLanguageSql}) as language
          from users u left join calendar_settings s on s.user_id = u.id left join user_preferences p on p.user_id = u.id where u.id = ${userId}`,
    );
    return (
      row && {
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        enabled: row.enabled,
        invitationMails: row.invitation_mails,
        language: row.language,
      }
    );
  }

  /** These events went out in an invitation (METHOD:REQUEST): their cancellation will be mailed. */
  async markInvited(reservationIds: string[], now: Date): Promise<void> {
    if (reservationIds.length === 0) return;
    await this.db.execute(
      sql`update calendar_events set invited_at = ${now.toISOString()}::timestamptz where reservation_id in (${sql.join(
        reservationIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
  }

  /** Housekeeping: tombstones of reservations cancelled more than TOMBSTONE_RETENTION_MS before `now`. */
  async purgeTombstones(now: Date): Promise<void> {
    const before = new Date(now.getTime() - TOMBSTONE_RETENTION_MS);
    await this.db.execute(sql`delete from calendar_events where cancelled_at is not null and cancelled_at < ${before.toISOString()}::timestamptz`);
  }
}

/** Housekeeping (src/infrastructure/housekeeping): calendar tombstones past their retention (docs/behaviour.md#calendar-feed). */
export const calendarTombstonesPurge: PurgeJob = { name: 'calendar tombstones', purge: (db, now) => new CalendarRepository(db).purgeTombstones(now) };
