import { translate } from '../../lib/translate.js';
import { deskPhrase } from '../../lib/labels.js';

/** "Booked: desk A1 in Blue Room, Wed, 15 May 2030, 09:00–12:00." (or "Booked for Ada Lovelace: …"), in the language in use. */
export function bookedSentence(deskName: string, roomName: string, range: string, bookFor?: { firstName: string; lastName: string }): string {
  const values = { desk: deskPhrase(deskName), room: roomName, range };
  return bookFor
    ? translate('booking:booked.for', { ...values, person: `${bookFor.firstName} ${bookFor.lastName}` })
    : translate('booking:booked.self', values);
}
