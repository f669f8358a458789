import type { SessionRow } from './sessions.repository.js';
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
