import type { OutboxMessageRow } from './outbox.repository.js';
import type { OutboxMessageDto } from './outbox.schemas.js';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export const toOutboxMessageDto = (row: OutboxMessageRow): OutboxMessageDto => ({
  id: row.id,
  kind: row.kind,
  recipient: row.recipient,
  status: row.status,
  attempts: row.attempts,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  nextAttemptAt: iso(row.nextAttemptAt),
  sentAt: iso(row.sentAt),
  deadAt: iso(row.deadAt),
});
