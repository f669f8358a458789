import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { readsAny, STALE_AFTER } from '../../api/query.js';
import type { OutboxMessage } from '../../api/types.js';
import { Alert, EmptyState, ItemTable, Loaded, PageHeader } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { errorText } from '../../lib/problems.js';
import { formatDateTime } from '../../lib/time.js';
import { kindKey, kindLabel, STATUSES, statusText, useOutboxCounts, useOutboxMessages, useRetryMessage, type OutboxStatus } from './queries.js';
import './styles.css';

const when = (iso: string | null, none = '—') => (iso === null ? none : formatDateTime(iso));

/** The columns after kind and recipient: what each status has to say (keys of `column` in outbox.json). */
const COLUMNS: Record<OutboxStatus, string[]> = {
  dead: ['tries', 'lastError', 'queued', 'givenUp'],
  pending: ['tries', 'lastError', 'queued', 'nextTry'],
  sending: ['tries', 'lastError', 'queued'],
  sent: ['tries', 'queued', 'sent'],
};

/**
 * Admins: the messages of the outbox by status, dead ones first, and "Retry" on a dead one
 * (docs/behaviour.md#the-outbox-page). Times are the browser's; what a mail says is never shown.
 */
export function OutboxPage() {
  const { t } = useTranslation('outbox');
  useTitle(t('title'));
  const [status, setStatus] = useState<OutboxStatus>('dead');
  const counts = useOutboxCounts();
  const queryClient = useQueryClient();

  return (
    <div className="page">
      <PageHeader title={t('title')}>
        <button
          type="button"
          className="button-secondary"
          // The outbox changes by itself (the outbox job): read the list and the counts again.
          onClick={() => void queryClient.invalidateQueries({ predicate: readsAny(STALE_AFTER.outbox) })}
        >
          {t('refresh')}
        </button>
      </PageHeader>
      <p className="lead">{t('lead')}</p>
      <div className="outbox-statuses" role="group" aria-label={t('common:fields.status')}>
        {STATUSES.map((item) => {
          const count = counts.data?.[item];
          return (
            <button key={item} type="button" className="outbox-status" aria-pressed={item === status} onClick={() => setStatus(item)} data-status={item}>
              {statusText(item).label}
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
  const { t } = useTranslation('outbox');
  const [page, setPage] = useState(0);
  const [notice, setNotice] = useState<string>();
  const messages = useOutboxMessages(status, page);
  const retry = useRetryMessage();
  const current = statusText(status);

  const resend = (message: OutboxMessage) => {
    setNotice(undefined);
    retry.mutate(
      { params: { path: { id: message.id } } },
      { onSuccess: () => setNotice(t('retried', { kind: kindKey(message.kind), name: message.kind.toLowerCase(), recipient: message.recipient })) },
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
      {retry.error && <Alert kind="error">{errorText(retry.error, t('subject'))}</Alert>}
      <Loaded query={messages} label={t('loading')}>
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{current.empty}</EmptyState>
          ) : (
            <ItemTable
              columns={[t('column.kind'), t('column.recipient'), ...COLUMNS[status].map((column) => t(`column.${column}`))]}
              page={result}
              onPage={setPage}
              label={t('pages')}
              cells={(message) => <MessageCells message={message} status={status} />}
              actions={(message) =>
                message.status === 'dead' && (
                  <button
                    type="button"
                    className="button-secondary button-small"
                    disabled={retry.isPending && retry.variables?.params.path.id === message.id}
                    onClick={() => resend(message)}
                    aria-label={t('retryOf', { kind: kindKey(message.kind), name: message.kind.toLowerCase(), recipient: message.recipient })}
                  >
                    {t('retry')}
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
  const { t } = useTranslation('outbox');
  return (
    <>
      <td data-label={t('column.kind')}>{kindLabel(message.kind)}</td>
      <td data-label={t('column.recipient')} className="break">
        {message.recipient}
      </td>
      <td data-label={t('column.tries')}>{message.attempts}</td>
      {status !== 'sent' && (
        <td data-label={t('column.lastError')} className="outbox-error">
          {message.lastError ?? '—'}
        </td>
      )}
      <td data-label={t('column.queued')}>{when(message.createdAt)}</td>
      {status === 'dead' && <td data-label={t('column.givenUp')}>{when(message.deadAt)}</td>}
      {status === 'pending' && <td data-label={t('column.nextTry')}>{when(message.nextAttemptAt, t('atOnce'))}</td>}
      {status === 'sent' && <td data-label={t('column.sent')}>{when(message.sentAt)}</td>}
    </>
  );
}
