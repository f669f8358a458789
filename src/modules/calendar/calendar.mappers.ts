import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus, type ICalCalendar, type ICalEventData } from 'ical-generator';
import { mailText, placeText } from '../../infrastructure/mail/messages.js';
import type { Language } from '../../shared/languages.js';
import type { CalendarEventRow } from './calendar.repository.js';

/** What every event of this service carries besides its row: where the web app is, and the host that makes UIDs unique. */
export interface CalendarContext {
  publicUrl: string;
}

/** PRODID names the language of the texts (docs/i18n.md#mails-and-the-calendar-feed). */
const productId = (language: Language) => ({ company: 'Deskbook', product: 'Deskbook', language: language.toUpperCase() });
/** How often a subscribed calendar app should read the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const FEED_REFRESH_SECONDS = 3600;

const baseUrl = (context: CalendarContext) => context.publicUrl.replace(/\/+$/, '');

/** Stable for the life of a reservation, and unique across installations (the host of PUBLIC_URL). */
export const uidOf = (reservationId: string, context: CalendarContext) => `${reservationId}@${new URL(context.publicUrl).hostname}`;

/** The reservation in the web app: "My reservations", where it can be changed or cancelled. */
export const linkOf = (reservationId: string, context: CalendarContext) => `${baseUrl(context)}/reservations?reservation=${reservationId}`;

/**
 * A reservation's place in `language`: the database builds it, live (calendar.repository.ts) or as
 * last seen (the calendar_location function), with the floor as "Floor n" (placeText).
 */
export const placeOf = (location: string, language: Language = 'en') => placeText(language, location);

export const summaryOf = (event: CalendarEventRow, language: Language = 'en') => mailText(language, 'calendar.summary', { desk: event.deskName });

function addEvent(calendar: ICalCalendar, event: CalendarEventRow, context: CalendarContext, extra: Partial<ICalEventData>, language: Language) {
  const link = linkOf(event.reservationId, context);
  const location = placeOf(event.location, language);
  calendar.createEvent({
    id: uidOf(event.reservationId, context),
    sequence: event.sequence,
    stamp: event.changedAt,
    lastModified: event.changedAt,
    start: event.startTime,
    end: event.endTime,
    summary: summaryOf(event, language),
    location,
    description: `${mailText(language, 'calendar.description', { location })}\n${link}`,
    url: link,
    // A reservation awaiting approval is tentative (docs/policies.md#approvals).
    status: event.cancelledAt !== null ? ICalEventStatus.CANCELLED : event.tentative ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    ...extra,
  });
}

const FEED_END = 'END:VCALENDAR';
const frames = new Map<Language, { head: string; tail: string }>();

/**
 * A user's feed (docs/behaviour.md#calendar-feed) is this frame's head, one VEVENT per reservation
 * (feedEvent; times in UTC, cancelled ones, the tombstones, with STATUS:CANCELLED and a higher
 * SEQUENCE) and its tail: the frame is the same for every feed.
 */
export function feedFrame(language: Language = 'en'): { head: string; tail: string } {
  let frame = frames.get(language);
  if (frame === undefined) {
    const name = mailText(language, 'calendar.name');
    const empty = ical({ prodId: productId(language), name, ttl: FEED_REFRESH_SECONDS, method: ICalCalendarMethod.PUBLISH }).toString();
    frame = { head: empty.slice(0, empty.lastIndexOf(FEED_END)), tail: FEED_END };
    frames.set(language, frame);
  }
  return frame;
}

/** One VEVENT of a feed, CRLF-terminated: feeds are the frame's head, their events' texts in order, and its tail. */
export function feedEvent(event: CalendarEventRow, context: CalendarContext, language: Language = 'en'): string {
  const calendar = ical({ prodId: productId(language) });
  addEvent(calendar, event, context, {}, language);
  return calendar.events()[0]!.toString();
}

export interface Invitation {
  method: 'REQUEST' | 'CANCEL';
  /** The iCalendar object (text/calendar; method=REQUEST or CANCEL). */
  content: string;
}

/**
 * An iTIP message (RFC 5546) for the owner of the events (docs/behaviour.md#invitation-mails):
 * METHOD:REQUEST for booked or changed reservations, METHOD:CANCEL (same UID, higher SEQUENCE)
 * for cancelled ones. The service is the organizer, the owner the one attendee, who has accepted.
 */
export function invitationCalendar(
  method: Invitation['method'],
  events: CalendarEventRow[],
  organizer: { name: string; email: string },
  attendee: { name: string; email: string },
  context: CalendarContext,
  language: Language = 'en',
): Invitation {
  const calendar = ical({ prodId: productId(language), method: method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL });
  for (const event of events) {
    addEvent(
      calendar,
      event,
      context,
      {
        organizer,
        attendees: [{ email: attendee.email, name: attendee.name, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.ACCEPTED, rsvp: false }],
      },
      language,
    );
  }
  return { method, content: calendar.toString() };
}
