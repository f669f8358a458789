import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf, type PageQuery } from '../../shared/paging.js';
import { UsersRepository } from '../users/users.repository.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { requireSelfOrAdmin } from '../../identity/policy.js';
import { SESSION_SORTABLE, SessionsRepository } from './sessions.repository.js';
import { toSessionDto } from './sessions.mappers.js';
import type { SessionDto } from './sessions.schemas.js';

/** Sessions that have not ended (revoked sessions are deleted; expired ones are filtered out and purged). */
export class SessionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get sessions() {
    return new SessionsRepository(this.db);
  }

  /** Admins see every session (optionally of one user); others see their own. */
  async list(caller: Caller, query: PageQuery & { userId?: string }) {
    requireSelfOrAdmin(caller, query.userId, 'You may list only your own sessions');
    const userId = isAdmin(caller) ? query.userId : caller.user.id;
    return this.page(userId, query);
  }

  async listOfUser(caller: Caller, userId: string, query: PageQuery) {
    requireSelfOrAdmin(caller, userId, 'You may list only your own sessions');
    if (isAdmin(caller) && !(await new UsersRepository(this.db).findById(userId))) throw notFound('User', userId);
    return this.page(userId, query);
  }

  private async page(userId: string | undefined, query: PageQuery): Promise<PageOf<SessionDto>> {
    const request = parsePageRequest(query, SESSION_SORTABLE);
    const { rows, total } = await this.sessions.page({ userId, now: this.clock.now() }, request);
    return pageOf(rows.map(toSessionDto), total, request);
  }

  /** Revokes a session: its owner or an admin; its tokens are refused from then on. */
  async revoke(caller: Caller, sessionId: string): Promise<void> {
    const session = await this.sessions.findById(sessionId);
    if (!session) throw notFound('Session', sessionId);
    requireSelfOrAdmin(caller, session.userId, 'You may revoke only your own sessions');
    await this.sessions.delete(sessionId);
  }
}
