import { createHash, randomBytes } from 'node:crypto';
import pLimit from 'p-limit';
import type { Database } from '../../db/client.js';
import type { ReadRouting } from '../../db/replica.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, notFound } from '../../shared/errors.js';
import { etagMatches } from '../../shared/etag.js';
import { lruGet } from '../../shared/lru.js';
import type { Caller } from '../../identity/caller.js';
import { isLanguage, type Language } from '../../shared/languages.js';
import { feedEvent, feedFrame, type CalendarContext } from './calendar.mappers.js';
import { CalendarRepository, TOMBSTONE_RETENTION_MS, type CalendarEventRow, type FeedDigest, type FeedWindow } from './calendar.repository.js';

/** The feed reaches this far back, as long as cancelled reservations are remembered. */
export const CALENDAR_PAST_MS = TOMBSTONE_RETENTION_MS;
/** At most this many events in one feed (the earliest first); a person keeps at most 100 tombstones (migration calendar_bounds). */
export const FEED_MAX_EVENTS = 500;
/** Feeds kept built per process (see CalendarService.remember). */
const FEED_CACHE_ENTRIES = 500;
const FEED_CACHE_BYTES = 16 * 1024 * 1024;
/** Event texts kept per process (see CalendarService.eventText). */
const EVENT_CACHE_ENTRIES = 20_000;
/** Feeds built at once in a process, and builds that may wait for a turn; more answer 429 (docs/behaviour.md#calendar-feed). */
export const FEED_BUILDS_AT_ONCE = 2;
export const FEED_BUILDS_WAITING = 8;
/** 256 random bits, base64url: 43 characters. */
const TOKEN_BYTES = 32;
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const hashFeedToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface CalendarSettings extends CalendarContext {
  /** RESERVATION_HORIZON: the feed reaches this far ahead. */
  horizonMs: number;
  /** The server's default language, for owners who chose none (docs/i18n.md#mails-and-the-calendar-feed). */
  defaultLanguage?: Language;
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
   * answers 404. The token is looked up on the primary (a replaced, deleted or disabled person's
   * token stops at once); the ETag is a digest of the rows computed in the same statement: a 304,
   * or a feed built before, needs nothing else; only a changed feed reads its events (on the
   * replica, if any) and is built again, once however many requests for it arrive together; the
   * digest statement too is shared by the requests for one token that arrive while it runs
   * (docs/behaviour.md#calendar-feed).
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
    const found = await this.digestOnce(tokenHash, window);
    if (found === undefined || !FEED_TOKEN.test(token)) throw notFound('Calendar');
    // The feed's texts are in the owner's language: a change of language changes the ETag too.
    const language = isLanguage(found.language) ? found.language : (this.settings.defaultLanguage ?? 'en');
    const etag = this.etagOf(found.digest, language);
    if (etagMatches(ifNoneMatch, etag)) return { etag };
    let feed: Feed;
    const kept = this.built.get(etag);
    if (kept !== undefined) {
      // Most recently used last: the oldest entry is the first to go.
      this.built.delete(etag);
      this.built.set(etag, kept);
      feed = { etag, body: kept };
    } else {
      feed = await this.buildOnce(found.userId, window, language);
    }
    // Events made before this read may now be in a calendar app: cancelling them leaves a tombstone.
    if (found.unseen) await this.calendar.markFetched(found.userId, found.readAt);
    return feed;
  }

  /** Digest statements run so far by this process (tests see requests share one). */
  lookups = 0;
  /** Digest statements in flight by token hash: requests for one feed arriving meanwhile share the answer. */
  private readonly digests = new Map<string, Promise<FeedDigest | undefined>>();

  private digestOnce(tokenHash: string, window: FeedWindow): Promise<FeedDigest | undefined> {
    const running = this.digests.get(tokenHash);
    if (running !== undefined) return running;
    this.lookups++;
    const lookup = this.calendar.feedDigest(tokenHash, window).finally(() => this.digests.delete(tokenHash));
    this.digests.set(tokenHash, lookup);
    return lookup;
  }

  /** Feeds built so far by this process (tests count builds with it). */
  builds = 0;
  /** The build of each person's feed in flight: requests arriving meanwhile wait for it. */
  private readonly inFlight = new Map<string, Promise<Feed>>();
  /** FEED_BUILDS_AT_ONCE builds run, the others wait for a turn. */
  private readonly building = pLimit(FEED_BUILDS_AT_ONCE);

  /** Builds waiting for a turn now (tests see the queue fill). */
  get buildsWaiting(): number {
    return this.building.pendingCount;
  }

  private buildOnce(userId: string, window: FeedWindow, language: Language): Promise<Feed> {
    const key = `${userId} ${language}`;
    const running = this.inFlight.get(key);
    if (running !== undefined) return running;
    if (this.building.activeCount + this.building.pendingCount >= FEED_BUILDS_AT_ONCE + FEED_BUILDS_WAITING) {
      throw new AppError('TOO_MANY_REQUESTS', 'Too many calendar feeds are being built at once; retry shortly', { retryAfter: 1 });
    }
    const build = this.building(() => this.build(userId, window, language)).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, build);
    return build;
  }

  private async build(userId: string, window: FeedWindow, language: Language): Promise<Feed> {
    this.builds++;
    const { events, lines } = await this.reads.read(undefined, (db) => new CalendarRepository(db).feedEvents(userId, window));
    // The rows may have changed since the digest was read: the ETag is that of what is sent.
    const etag = this.etagOf(createHash('md5').update(lines.join('\n')).digest('hex'), language);
    const { head, tail } = feedFrame(language);
    const body = Buffer.from(head + events.map((event, i) => this.eventText(lines[i]!, event, language)).join('') + tail, 'utf8');
    this.remember(etag, body);
    return { etag, body };
  }

  /**
   * The text of one event depends on its digest line (every field it shows) and PUBLIC_URL only,
   * so texts are kept by line (at most EVENT_CACHE_ENTRIES): a change rebuilds that one event.
   */
  private readonly eventTexts = new Map<string, string>();

  private eventText(line: string, event: CalendarEventRow, language: Language): string {
    return lruGet(this.eventTexts, `${language} ${line}`, EVENT_CACHE_ENTRIES, () => {
      this.eventsRendered++;
      return feedEvent(event, this.settings, language);
    });
  }

  /** Event texts rendered so far by this process (tests see that a change renders one). */
  eventsRendered = 0;

  /** The feed's text depends on its rows (their digest), PUBLIC_URL and the owner's language only. */
  private etagOf(digest: string, language: Language): string {
    // English keeps the ETags of before languages, so that no feed is sent again for nothing; the
    // others' changed once when the floor ("Floor 2") was translated too.
    const lang = language === 'en' ? '' : ` ${language} floor`;
    return `"${createHash('sha256').update(`v1 ${this.settings.publicUrl} ${digest}${lang}`).digest('base64url')}"`;
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
