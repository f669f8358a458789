import type { PushMessage } from './notifications.queue.js';

/**
 * What each push says (docs/notifications.md#what-a-push-says): the desk and room by name and the
 * local time, as the event's mail does, but never a person's name or address. The tag makes a newer
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

const where = (place: PushPlace) => `Desk ${place.deskName} (${place.roomName}), ${place.start} (${place.timeZone})`;
const tag = (place: PushPlace) => `reservation-${place.reservationId}`;

export const checkInOpenPush = (place: PushPlace): PushMessage => ({
  title: 'Check-in is open',
  body: `${where(place)}. Check in, or the desk is released.`,
  url: '/reservations',
  tag: tag(place),
});

export const releasedPush = (place: PushPlace): PushMessage => ({
  title: 'Desk released: nobody checked in',
  body: `${where(place)}.`,
  url: '/reservations',
  tag: tag(place),
});

export const approvalPush = (place: PushPlace, outcome: 'APPROVED' | 'REJECTED' | 'EXPIRED'): PushMessage => ({
  title: { APPROVED: 'Booking approved', REJECTED: 'Booking rejected', EXPIRED: 'Booking request expired' }[outcome],
  body: `${where(place)}.`,
  url: '/reservations',
  tag: tag(place),
});

export const bookedByOthersPush = (place: PushPlace, action: 'booked' | 'changed' | 'cancelled'): PushMessage => ({
  title: { booked: 'A desk was booked for you', changed: 'Your booking was changed', cancelled: 'Your booking was cancelled' }[action],
  body: `${where(place)}.`,
  url: '/reservations',
  tag: tag(place),
});
