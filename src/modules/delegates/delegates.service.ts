import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid, notFound } from '../../shared/errors.js';
import type { Caller } from '../../identity/caller.js';
import { DelegatesRepository } from './delegates.repository.js';
import { toDelegateDto } from './delegates.mappers.js';
import { DELEGATES_PER_PERSON, type DelegateDto } from './delegates.schemas.js';

/**
 * A person's delegates: the people they let book, change and cancel their reservations
 * (docs/policies.md#booking-for-someone-else). Only the person names or removes them.
 */
export class DelegatesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get delegates() {
    return new DelegatesRepository(this.db);
  }

  async list(caller: Caller): Promise<DelegateDto[]> {
    return (await this.delegates.delegatesOf(caller.user.id)).map(toDelegateDto);
  }

  async add(caller: Caller, delegateId: string): Promise<DelegateDto[]> {
    if (delegateId === caller.user.id) throw invalid('userId', 'is you: you book for yourself anyway');
    if (!(await this.delegates.userExists(delegateId))) throw invalid('userId', 'no such user');
    const outcome = await this.delegates.add(caller.user.id, delegateId, DELEGATES_PER_PERSON, this.clock.now());
    if (outcome === 'full') throw new AppError('TOO_MANY_DELEGATES', `You may name at most ${DELEGATES_PER_PERSON} delegates`);
    return this.list(caller);
  }

  async remove(caller: Caller, delegateId: string): Promise<void> {
    if (!(await this.delegates.remove(caller.user.id, delegateId))) throw notFound('Delegate', delegateId);
  }
}
