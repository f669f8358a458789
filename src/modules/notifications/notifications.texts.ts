import { mailText } from '../../infrastructure/mail/messages.js';
import type { Language } from '../../shared/languages.js';
import type { PushMessage } from './notifications.queue.js';

/**
 * What each push says (docs/notifications.md#what-a-push-says): the desk and room by name and the
 * local time, as the event's mail does, but never a person's name or address; in the recipient's
 * language (docs/i18n.md#mails-and-the-calendar-feed), English when not given. The tag makes a newer
 * push about the same reservation replace the older one on the device.
 */
export interface PushPlace {
  reservationId: string;
  deskName: string;
  roomName: string;
  /** The local start, formatted (shared/zone.ts formatLocal), and its zone. */
  start: string;
  timeZone: string;
}

const placeValues = (place: PushPlace) => ({ desk: place.deskName, room: place.roomName, start: place.start, timeZone: place.timeZone });
const where = (place: PushPlace, language: Language) => mailText(language, 'push.place', placeValues(place));
const tag = (place: PushPlace) => `reservation-${place.reservationId}`;

export const checkInOpenPush = (place: PushPlace, language: Language = 'en'): PushMessage => ({
  title: mailText(language, 'push.checkIn.title'),
  body: mailText(language, 'push.checkIn.body', placeValues(place)),
  url: '/reservations',
  tag: tag(place),
});

export const releasedPush = (place: PushPlace, language: Language = 'en'): PushMessage => ({
  title: mailText(language, 'push.released.title'),
  body: where(place, language),
  url: '/reservations',
  tag: tag(place),
});

export const approvalPush = (place: PushPlace, outcome: 'APPROVED' | 'REJECTED' | 'EXPIRED', language: Language = 'en'): PushMessage => ({
  title: mailText(language, 'push.approval.title', { outcome }),
  body: where(place, language),
  url: '/reservations',
  tag: tag(place),
});

export const bookedByOthersPush = (place: PushPlace, action: 'booked' | 'changed' | 'cancelled', language: Language = 'en'): PushMessage => ({
  title: mailText(language, 'push.bookedByOthers.title', { action }),
  body: where(place, language),
  url: '/reservations',
  tag: tag(place),
});
