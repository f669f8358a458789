import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { forbidden, notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf, type PageQuery } from '../../shared/paging.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { SESSION_SORTABLE, SessionsRepository, type SessionRow } from './sessions.repository.js';
import type { SessionDto } from './sessions.schemas.js';

export const toSessionDto = (row: SessionRow): SessionDto => ({
  id: row.id,
  expiresAt: row.expiresAt.toISOString(),
  refreshExpiresAt: row.refreshExpiresAt.toISOString(),
  userId: row.userId,
  userAgent: row.userAgent,
  createdAt: row.createdAt.toISOString(),
  modifiedAt: row.modifiedAt.toISOString(),
});

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
    if (!isAdmin(caller) && query.userId !== undefined && query.userId !== caller.user.id) {
      throw forbidden('You may list only your own sessions');
    }
    const userId = isAdmin(caller) ? query.userId : caller.user.id;
    return this.page(userId, query);
  }

  async listOfUser(caller: Caller, userId: string, query: PageQuery) {
    if (!isAdmin(caller) && userId !== caller.user.id) throw forbidden('You may list only your own sessions');
    const request = parsePageRequest(query, SESSION_SORTABLE);
    // One statement: the user's existence with the page (a caller's own account always exists).
    const found = await this.sessions.pageOfUser(userId, this.clock.now(), request);
    if (!found) throw notFound('User', userId);
    return pageOf(found.rows.map(toSessionDto), found.total, request);
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
    if (!isAdmin(caller) && session.userId !== caller.user.id) throw forbidden('You may revoke only your own sessions');
    await this.sessions.delete(sessionId);
  }
}
