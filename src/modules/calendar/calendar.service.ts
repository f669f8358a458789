import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { ReadRouting } from '../../db/replica.js';
import type { Clock } from '../../shared/clock.js';
import { notFound } from '../../shared/errors.js';
import type { Caller } from '../../identity/caller.js';
import { feedCalendar, type CalendarContext } from './calendar.mappers.js';
import { CalendarRepository, TOMBSTONE_RETENTION_MS, type FeedWindow } from './calendar.repository.js';

/** The feed reaches this far back, as long as cancelled reservations are remembered. */
export const CALENDAR_PAST_MS = TOMBSTONE_RETENTION_MS;
/** At most this many events in one feed (the earliest first). */
export const FEED_MAX_EVENTS = 2000;
/** Feeds kept built per process (see CalendarService.remember). */
const FEED_CACHE_ENTRIES = 500;
const FEED_CACHE_BYTES = 16 * 1024 * 1024;
/** 256 random bits, base64url: 43 characters. */
const TOKEN_BYTES = 32;
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const hashFeedToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface CalendarSettings extends CalendarContext {
  /** RESERVATION_HORIZON: the feed reaches this far ahead. */
  horizonMs: number;
}

export interface Feed {
  etag: string;
  /** The iCalendar text, UTF-8 (kept encoded: sent as it is). Undefined when the caller's If-None-Match already names the ETag (304). */
  body?: Buffer;
}

/**
 * Calendar feeds and the per-user calendar settings (docs/behaviour.md#calendars). The events
 * themselves are kept by a database trigger on reservations, so this service never needs the
 * reservations module.
 */
export class CalendarService {
  constructor(
    private readonly db: Database,
    /** The feed only: the owner's own pages read the primary. */
    private readonly reads: ReadRouting,
    private readonly clock: Clock,
    private readonly settings: CalendarSettings,
  ) {}

  private get calendar() {
    return new CalendarRepository(this.db);
  }

  /**
   * GET /api/calendar/{token}.ics. Any string is hashed and looked up the same way, so an
   * unknown, malformed or replaced token costs what a known one does (one statement) and
   * answers 404. The ETag is a digest of the rows computed in the database: a 304, or a feed
   * built before, needs nothing else; only a changed feed reads its events and is built again.
   */
  async feed(token: string, ifNoneMatch: string | undefined): Promise<Feed> {
    const now = this.clock.now().getTime();
    const window = {
      from: new Date(now - CALENDAR_PAST_MS),
      to: new Date(now + this.settings.horizonMs),
      cancelledSince: new Date(now - CALENDAR_PAST_MS),
      limit: FEED_MAX_EVENTS,
    };
    const tokenHash = hashFeedToken(token);
    // Read on the replica within the staleness bound (docs/deployment.md#with-a-read-replica); a
    // feed made a moment ago may not be there yet, so a token the replica does not know asks the primary.
    let feed = await this.reads.read(undefined, (db) => this.feedOn(db, tokenHash, window, ifNoneMatch));
    if (feed === undefined && this.reads.replicated) feed = await this.feedOn(this.db, tokenHash, window, ifNoneMatch);
    if (feed === undefined || !FEED_TOKEN.test(token)) throw notFound('Calendar');
    return feed;
  }

  /** The feed of this token hash read on `db`; undefined when `db` knows no such feed. */
  private async feedOn(db: Database, tokenHash: string, window: FeedWindow, ifNoneMatch: string | undefined): Promise<Feed | undefined> {
    const calendar = new CalendarRepository(db);
    // First the digest alone (one short row): enough for a 304, and for a feed built before.
    const digest = await calendar.feedDigest(tokenHash, window);
    if (digest === undefined) return undefined;
    const etag = this.etagOf(digest);
    if (ifNoneMatch?.split(',').some((tag) => ['*', etag, `W/${etag}`].includes(tag.trim()))) return { etag };
    const kept = this.built.get(etag);
    if (kept !== undefined) {
      // Most recently used last: the oldest entry is the first to go.
      this.built.delete(etag);
      this.built.set(etag, kept);
      return { etag, body: kept };
    }
    const found = await calendar.feed(tokenHash, window);
    if (!found) return undefined;
    // The rows may have changed since the digest was read: the ETag is that of what is sent.
    const builtEtag = this.etagOf(createHash('md5').update(found.lines.join('\n')).digest('hex'));
    const body = Buffer.from(feedCalendar(found.events, this.settings), 'utf8');
    this.remember(builtEtag, body);
    return { etag: builtEtag, body };
  }

  /** The feed's text depends on its rows (their digest) and on PUBLIC_URL only. */
  private etagOf(digest: string): string {
    return `"${createHash('sha256').update(`v1 ${this.settings.publicUrl} ${digest}`).digest('base64url')}"`;
  }

  /**
   * The text of a feed depends on nothing but what its ETag hashes, so feeds built recently are
   * kept by ETag (at most FEED_CACHE_ENTRIES, FEED_CACHE_BYTES in all): a calendar app polling an
   * unchanged feed without If-None-Match costs the one statement, not a new build.
   */
  private readonly built = new Map<string, Buffer>();
  private builtBytes = 0;

  private remember(etag: string, body: Buffer): void {
    if (body.length > FEED_CACHE_BYTES / 4) return;
    this.built.set(etag, body);
    this.builtBytes += body.length;
    for (const [oldest, text] of this.built) {
      if (this.built.size <= FEED_CACHE_ENTRIES && this.builtBytes <= FEED_CACHE_BYTES) break;
      this.built.delete(oldest);
      this.builtBytes -= text.length;
    }
  }

  async feedStatus(caller: Caller): Promise<{ exists: boolean; createdAt: string | null }> {
    const feed = await this.calendar.feedOf(caller.user.id);
    return { exists: feed !== undefined, createdAt: feed?.createdAt.toISOString() ?? null };
  }

  /** A new random token replaces the caller's feed (the old URL answers 404 from now on); the URL is shown only in this answer. */
  async replaceFeed(caller: Caller): Promise<{ url: string; createdAt: string }> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = this.clock.now();
    await this.calendar.replaceFeed(caller.user.id, hashFeedToken(token), now);
    return { url: `${this.settings.publicUrl.replace(/\/+$/, '')}/api/calendar/${token}.ics`, createdAt: now.toISOString() };
  }

  async deleteFeed(caller: Caller): Promise<void> {
    if (!(await this.calendar.deleteFeed(caller.user.id))) throw notFound('Calendar feed');
  }

  async getSettings(caller: Caller): Promise<{ invitationMails: boolean }> {
    return this.calendar.settingsOf(caller.user.id);
  }

  async saveSettings(caller: Caller, settings: { invitationMails: boolean }): Promise<{ invitationMails: boolean }> {
    await this.calendar.saveSettings(caller.user.id, settings, this.clock.now());
    return settings;
  }
}
