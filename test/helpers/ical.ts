import ICAL from 'ical.js';

/** One VEVENT as Mozilla's parser (ical.js) reads it: the members the calendar tests look at. */
export interface ParsedEvent {
  uid: string;
  sequence: number;
  summary: string;
  location: string;
  description: string;
  url: string | null;
  status: string | null;
  start: string;
  end: string;
  startIsUtc: boolean;
  dtstamp: string;
  organizer: string | null;
  attendees: string[];
}

export interface ParsedCalendar {
  method: string | null;
  name: string | null;
  events: ParsedEvent[];
}

/** A CAL-ADDRESS with its scheme in lower case (MAILTO: and mailto: are the same). */
const mailto = (value: unknown) => (value === null || value === undefined ? null : String(value).replace(/^mailto:/i, 'mailto:'));

const iso = (value: unknown) => (value as ICAL.Time).toJSDate().toISOString();

/** Parses an iCalendar text with ical.js (throws on anything it cannot read). */
export function parseCalendar(text: string): ParsedCalendar {
  const component = new ICAL.Component(ICAL.parse(text));
  return {
    method: (component.getFirstPropertyValue('method') as string | null) ?? null,
    name: (component.getFirstPropertyValue('x-wr-calname') as string | null) ?? null,
    events: component.getAllSubcomponents('vevent').map((vevent) => {
      const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
      return {
        uid: String(vevent.getFirstPropertyValue('uid')),
        sequence: Number(vevent.getFirstPropertyValue('sequence')),
        summary: String(vevent.getFirstPropertyValue('summary')),
        location: String(vevent.getFirstPropertyValue('location')),
        description: String(vevent.getFirstPropertyValue('description')),
        url: (vevent.getFirstPropertyValue('url') as string | null) ?? null,
        status: (vevent.getFirstPropertyValue('status') as string | null) ?? null,
        start: iso(start),
        end: iso(vevent.getFirstPropertyValue('dtend')),
        startIsUtc: start.zone?.tzid === 'UTC',
        dtstamp: iso(vevent.getFirstPropertyValue('dtstamp')),
        organizer: mailto(vevent.getFirstPropertyValue('organizer')),
        attendees: vevent.getAllProperties('attendee').map((property) => mailto(property.getFirstValue())!),
      };
    }),
  };
}
