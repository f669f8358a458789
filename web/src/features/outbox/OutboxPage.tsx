import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { readsAny, STALE_AFTER } from '../../api/query.js';
import type { OutboxMessage } from '../../api/types.js';
import { Alert, EmptyState, ItemTable, Loaded, PageHeader } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { kindLabel, STATUSES, useOutboxCounts, useOutboxMessages, useRetryMessage, type OutboxStatus } from './queries.js';
import './styles.css';

const when = (iso: string | null, none = '—') => (iso === null ? none : formatDateTime(iso));

/** The columns after kind and recipient: what each status has to say. */
const COLUMNS: Record<OutboxStatus, string[]> = {
  dead: ['Tries', 'Last error', 'Queued', 'Given up'],
  pending: ['Tries', 'Last error', 'Queued', 'Next try'],
  sending: ['Tries', 'Last error', 'Queued'],
  sent: ['Tries', 'Queued', 'Sent'],
};

/**
 * Admins: the messages of the outbox by status, dead ones first, and "Retry" on a dead one
 * (docs/behaviour.md#the-outbox-page). Times are the browser's; what a mail says is never shown.
 */
export function OutboxPage() {
  useTitle('Outbox');
  const [status, setStatus] = useState<OutboxStatus>('dead');
  const counts = useOutboxCounts();
  const queryClient = useQueryClient();

  return (
    <div className="page">
      <PageHeader title="Outbox">
        <button
          type="button"
          className="button-secondary"
          // The outbox changes by itself (the outbox job): read the list and the counts again.
          onClick={() => void queryClient.invalidateQueries({ predicate: readsAny(STALE_AFTER.outbox) })}
        >
          Refresh
        </button>
      </PageHeader>
      <p className="lead">Every mail the service sends leaves from here: password links, calendar invitations and released-desk notices.</p>
      <div className="outbox-statuses" role="group" aria-label="Status">
        {STATUSES.map((item) => {
          const count = counts.data?.[item.status];
          return (
            <button
              key={item.status}
              type="button"
              className="outbox-status"
              aria-pressed={item.status === status}
              onClick={() => setStatus(item.status)}
              data-status={item.status}
            >
              {item.label}
              {count !== undefined && <span className="outbox-count"> ({count})</span>}
            </button>
          );
        })}
      </div>
      {/* Keyed by status: a new status starts on its first page, without the rows of the one before. */}
      <MessageList key={status} status={status} />
    </div>
  );
}

/** The messages of one status, a page at a time, with "Retry" on dead ones. */
function MessageList({ status }: { status: OutboxStatus }) {
  const [page, setPage] = useState(0);
  const [notice, setNotice] = useState<string>();
  const messages = useOutboxMessages(status, page);
  const retry = useRetryMessage();
  const current = STATUSES.find((item) => item.status === status)!;

  const resend = (message: OutboxMessage) => {
    setNotice(undefined);
    retry.mutate(
      { params: { path: { id: message.id } } },
      { onSuccess: () => setNotice(`The ${kindLabel(message.kind).toLowerCase()} to ${message.recipient} is pending again and goes out in a moment.`) },
    );
  };

  return (
    <section className="outbox-list" aria-labelledby="outbox-list-heading">
      <h2 id="outbox-list-heading">{current.label}</h2>
      <p className="muted">{current.about}</p>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      {retry.error && <Alert kind="error">{errorText(retry.error, 'This message')}</Alert>}
      <Loaded query={messages} label="Loading messages…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{current.empty}</EmptyState>
          ) : (
            <ItemTable
              columns={['Kind', 'Recipient', ...COLUMNS[status]]}
              page={result}
              onPage={setPage}
              label="Outbox pages"
              cells={(message) => <MessageCells message={message} status={status} />}
              actions={(message) =>
                message.status === 'dead' && (
                  <button
                    type="button"
                    className="button-secondary button-small"
                    disabled={retry.isPending && retry.variables?.params.path.id === message.id}
                    onClick={() => resend(message)}
                    aria-label={`Retry the ${kindLabel(message.kind).toLowerCase()} to ${message.recipient}`}
                  >
                    Retry
                  </button>
                )
              }
            />
          )
        }
      </Loaded>
    </section>
  );
}

function MessageCells({ message, status }: { message: OutboxMessage; status: OutboxStatus }) {
  return (
    <>
      <td data-label="Kind">{kindLabel(message.kind)}</td>
      <td data-label="Recipient" className="break">
        {message.recipient}
      </td>
      <td data-label="Tries">{message.attempts}</td>
      {status !== 'sent' && (
        <td data-label="Last error" className="outbox-error">
          {message.lastError ?? '—'}
        </td>
      )}
      <td data-label="Queued">{when(message.createdAt)}</td>
      {status === 'dead' && <td data-label="Given up">{when(message.deadAt)}</td>}
      {status === 'pending' && <td data-label="Next try">{when(message.nextAttemptAt, 'At once')}</td>}
      {status === 'sent' && <td data-label="Sent">{when(message.sentAt)}</td>}
    </>
  );
}
