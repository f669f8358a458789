import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** The outbox as admins see it: its messages by status and the retry of a dead one (docs/behaviour.md#the-outbox-page). */

const PAGE_SIZE = 20;

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'dead';

/** The statuses in the order of the page's tabs (what needs an admin first), with the API's names and what each means. */
export const STATUSES: readonly { status: OutboxStatus; label: string; about: string; empty: string }[] = [
  {
    status: 'dead',
    label: 'Dead',
    about: 'Given up after their tries. Once the cause is fixed (the mail server, an address), retry them.',
    empty: 'No message has failed.',
  },
  {
    status: 'pending',
    label: 'Pending',
    about: 'Waiting to be sent: at once, or after a failed try at the time shown.',
    empty: 'Nothing is waiting to be sent.',
  },
  { status: 'sending', label: 'Sending', about: 'Being sent by a server process right now.', empty: 'No message is being sent right now.' },
  {
    status: 'sent',
    label: 'Sent',
    about: 'Accepted by the mail server. They are kept a while (MAIL_RETENTION), then deleted.',
    empty: 'No message was sent recently.',
  },
];

/** What each kind of message is, in words (docs/architecture.md#the-outbox names the kinds). */
const KIND_LABELS: Record<string, string> = {
  mail: 'Released-desk notice',
  'password.link': 'Password link',
  'calendar.invitation': 'Calendar invitation',
  push: 'Push notification',
};

/** A kind in words; one this page does not know yet keeps its name. */
export const kindLabel = (kind: string) => (Object.hasOwn(KIND_LABELS, kind) ? KIND_LABELS[kind]! : `Other message (${kind})`);

/** The messages of one status, a page at a time, newest first (given-up ones: most recently given up first). */
export const useOutboxMessages = (status: OutboxStatus, page: number) =>
  $api.useQuery(
    'get',
    '/api/admin/outbox',
    { params: { query: { status, page, size: PAGE_SIZE, ...(status === 'dead' ? { sort: ['deadAt,desc'] } : {}) } } },
    { placeholderData: keepPreviousData },
  );

/** How many messages each status holds (the tabs' counts). */
export const useOutboxCounts = () => $api.useQuery('get', '/api/admin/outbox/counts', {});

/** Sends a dead message again: the list and the counts are read afresh. */
export const useRetryMessage = (onSuccess?: () => void) =>
  $api.useMutation('post', '/api/admin/outbox/{id}/retry', { meta: { invalidates: STALE_AFTER.outbox }, onSuccess });
