import type { Database } from '../../db/client.js';
import { retryDead } from '../../infrastructure/outbox/outbox.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { toOutboxMessageDto } from './outbox.mappers.js';
import { OUTBOX_SORTABLE, OutboxRepository } from './outbox.repository.js';
import type { OutboxCountsDto, OutboxListQuery, OutboxMessageDto } from './outbox.schemas.js';

/** What admins see of the outbox, and their retry of a dead message (docs/behaviour.md#mails). */
export class OutboxService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** Asks the outbox job to run now (a retried message goes out without waiting for the interval). */
    private readonly sendSoon: () => void,
  ) {}

  async list(query: OutboxListQuery): Promise<PageOf<OutboxMessageDto>> {
    const request = parsePageRequest(query, OUTBOX_SORTABLE);
    const { rows, total } = await new OutboxRepository(this.db).page(query.status, request);
    return pageOf(rows.map(toOutboxMessageDto), total, request);
  }

  counts(): Promise<OutboxCountsDto> {
    return new OutboxRepository(this.db).counts();
  }

  async retry(id: number): Promise<void> {
    const outcome = await retryDead(this.db, id);
    if (outcome === 'not-found') throw notFound('Outbox message', String(id));
    if (outcome === 'not-dead') throw new AppError('OUTBOX_NOT_DEAD', `Outbox message ${id} is not dead: it is sent or still being tried`);
    this.sendSoon();
  }
}
