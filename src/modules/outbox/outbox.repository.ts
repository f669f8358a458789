import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { totalOfPage } from '../../db/paging.js';
import { offsetOf, type PageRequest } from '../../shared/paging.js';

export const OUTBOX_SORTABLE = ['id', 'kind', 'status', 'attempts', 'createdAt', 'deadAt'] as const;

const SORT_COLUMNS: Record<(typeof OUTBOX_SORTABLE)[number], string> = {
  id: 'o.id',
  kind: 'o.kind',
  status: 'o.status',
  attempts: 'o.attempts',
  createdAt: 'o.created_at',
  deadAt: 'o.dead_at',
};

export interface OutboxMessageRow {
  id: number;
  kind: string;
  recipient: string;
  status: 'pending' | 'sending' | 'sent' | 'dead';
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
  deadAt: Date | null;
}

interface RawRow {
  id: string;
  kind: string;
  recipient: string;
  status: OutboxMessageRow['status'];
  attempts: number;
  last_error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  sent_at: string | null;
  dead_at: string | null;
  total: number;
}

const date = (value: string | null) => (value === null ? null : new Date(value));

/**
 * Reads the outbox for admins (the outbox itself, src/infrastructure/outbox, is its only writer).
 * The recipient is the user's address when the group is a user id (invitations), else the group
 * (the address a mail was queued for); the payload is never read.
 */
export class OutboxRepository {
  constructor(private readonly db: Database) {}

  /** How many messages each status holds (the admin page's tabs). One scan of the table: it holds what housekeeping has not purged yet. */
  async counts(): Promise<Record<OutboxMessageRow['status'], number>> {
    const rows = await queryRows<{ status: OutboxMessageRow['status']; n: number }>(
      this.db,
      sql`select status, count(*)::int as n from outbox group by status`,
    );
    const counts = { pending: 0, sending: 0, sent: 0, dead: 0 };
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  async page(status: OutboxMessageRow['status'] | undefined, request: PageRequest): Promise<{ rows: OutboxMessageRow[]; total: number }> {
    const where = status === undefined ? sql`true` : sql`o.status = ${status}::outbox_status`;
    const orders = [
      ...request.orders.map((order) => sql.raw(`${SORT_COLUMNS[order.property as keyof typeof SORT_COLUMNS]} ${order.direction === 'DESC' ? 'desc' : 'asc'}`)),
      sql`o.created_at desc`,
      sql`o.id desc`,
    ];
    const rows = await queryRows<RawRow>(
      this.db,
      sql`select o.id, o.kind, coalesce(u.email, o.group_key) as recipient, o.status, o.attempts, o.last_error,
            o.created_at, o.next_attempt_at, o.sent_at, o.dead_at, count(*) over ()::int as total
          from outbox o left join users u on o.kind in ('calendar.invitation', 'push') and u.id::text = o.group_key
          where ${where}
          order by ${sql.join(orders, sql`, `)}
          limit ${request.size} offset ${offsetOf(request)}`,
    );
    const total = await totalOfPage(
      rows.map((row) => ({ total: Number(row.total) })),
      request,
      async () => (await queryRows<{ n: number }>(this.db, sql`select count(*)::int as n from outbox o where ${where}`))[0]?.n ?? 0,
    );
    return {
      rows: rows.map((row) => ({
        id: Number(row.id),
        kind: row.kind,
        recipient: row.recipient,
        status: row.status,
        attempts: Number(row.attempts),
        lastError: row.last_error,
        createdAt: new Date(row.created_at),
        nextAttemptAt: date(row.next_attempt_at),
        sentAt: date(row.sent_at),
        deadAt: date(row.dead_at),
      })),
      total,
    };
  }
}
