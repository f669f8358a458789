import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { notFound } from '../../shared/errors.js';
import type { Caller } from '../../identity/caller.js';
import { feedCalendar, type CalendarContext } from './calendar.mappers.js';
import { CalendarRepository } from './calendar.repository.js';

const DAY = 86_400_000;
/** The feed reaches this far back, and cancelled reservations are remembered this long. */
export const CALENDAR_PAST_MS = 30 * DAY;
/** At most this many events in one feed (the earliest first). */
export const FEED_MAX_EVENTS = 2000;
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
  /** Undefined when the caller's If-None-Match already names the ETag (304). */
  body?: string;
}

/**
 * Calendar feeds and the per-user calendar settings (docs/behaviour.md#calendars). The events
 * themselves are kept by a database trigger on reservations, so this service never needs the
 * reservations module.
 */
export class CalendarService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: CalendarSettings,
  ) {}

  private get calendar() {
    return new CalendarRepository(this.db);
  }

  /**
   * GET /api/calendar/{token}.ics. Any string is hashed and looked up the same way, so an
   * unknown, malformed or replaced token costs what a known one does and answers 404; the ETag
   * is computed from the rows, before (and instead of, for a 304) building the iCalendar text.
   */
  async feed(token: string, ifNoneMatch: string | undefined): Promise<Feed> {
    const now = this.clock.now().getTime();
    const found = await this.calendar.feed(hashFeedToken(token), {
      from: new Date(now - CALENDAR_PAST_MS),
      to: new Date(now + this.settings.horizonMs),
      cancelledSince: new Date(now - CALENDAR_PAST_MS),
      limit: FEED_MAX_EVENTS,
    });
    if (!found || !FEED_TOKEN.test(token)) throw notFound('Calendar');
    const fingerprint = createHash('sha256').update(`v1\n${this.settings.publicUrl}\n`);
    for (const event of found.events) {
      fingerprint.update(
        `${event.reservationId} ${event.startTime.getTime()} ${event.endTime.getTime()} ${event.sequence} ${event.changedAt.getTime()} ${event.cancelledAt?.getTime() ?? '-'} ${event.deskName} ${event.location}\n`,
      );
    }
    const etag = `"${fingerprint.digest('base64url')}"`;
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => ['*', etag, `W/${etag}`].includes(tag.trim()))) return { etag };
    return { etag, body: feedCalendar(found.events, this.settings) };
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
