import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import { translate } from '../../lib/translate.js';

/** The outbox as admins see it: its messages by status and the retry of a dead one (docs/behaviour.md#the-outbox-page). */

const PAGE_SIZE = 20;

export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'dead';

/** The statuses in the order of the page's tabs (what needs an admin first), with the API's names. */
export const STATUSES: readonly OutboxStatus[] = ['dead', 'pending', 'sending', 'sent'];

/** What a status is called, what it means and what its empty list says, in the language in use. */
export const statusText = (status: OutboxStatus) => ({
  label: translate(`outbox:status.${status}.label`),
  about: translate(`outbox:status.${status}.about`),
  empty: translate(`outbox:status.${status}.empty`),
});

/** The kinds this page knows (docs/architecture.md#the-outbox names them), each with its message key. */
const KIND_KEYS: Record<string, string> = {
  mail: 'mail',
  'password.link': 'passwordLink',
  'calendar.invitation': 'calendarInvitation',
  push: 'push',
};

/**
 * A kind as the `kind` argument of the outbox messages' select: `other` for one this page does not
 * know yet, which keeps its own name (`name`).
 */
export const kindKey = (kind: string) => (Object.hasOwn(KIND_KEYS, kind) ? KIND_KEYS[kind]! : 'other');

/** A kind in words; one this page does not know yet keeps its name. */
export const kindLabel = (kind: string) => translate('outbox:kind', { kind: kindKey(kind), name: kind });

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
