/** PostgreSQL error codes (SQLSTATE) the service reacts to. */
export const PG = {
  UNIQUE_VIOLATION: '23505',
  FOREIGN_KEY_VIOLATION: '23503',
  EXCLUSION_VIOLATION: '23P01',
  CHECK_VIOLATION: '23514',
  INVALID_TEXT_REPRESENTATION: '22P02',
  /** A NUL character in text: PostgreSQL cannot store it. */
  CHARACTER_NOT_IN_REPERTOIRE: '22021',
  UNTRANSLATABLE_CHARACTER: '22P05',
  /** Also a standby's statement cancelled by a conflict with recovery. */
  SERIALIZATION_FAILURE: '40001',
  /** Two transactions waited on each other; PostgreSQL aborted one (concurrent inserts under an exclusion constraint can). */
  DEADLOCK_DETECTED: '40P01',
  QUERY_CANCELED: '57014',
  ADMIN_SHUTDOWN: '57P01',
  CRASH_SHUTDOWN: '57P02',
  CANNOT_CONNECT_NOW: '57P03',
  /** Raised by the trigger closures_refuse (migration 0024): the reservation touches a closed day. */
  CLOSED_DAY: 'DBC01',
} as const;

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

interface DatabaseErrorLike {
  code?: unknown;
  constraint?: unknown;
  constraint_name?: unknown;
  detail?: unknown;
  cause?: unknown;
}

/** The driver error under drizzle's DrizzleQueryError wrapper. */
export function driverError(error: unknown): DatabaseErrorLike | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as DatabaseErrorLike;
    if (typeof candidate.code === 'string') return candidate;
    current = candidate.cause;
  }
  return undefined;
}

export function pgErrorCode(error: unknown): string | undefined {
  const code = driverError(error)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  const found = driverError(error);
  const name = found?.constraint_name ?? found?.constraint;
  return typeof name === 'string' ? name : undefined;
}

/** True when the database cannot be reached at all (down, unreachable, shutting down, starting up). */
export function isConnectionFailure(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code === undefined) return false;
  return CONNECTION_ERRORS.has(code) || code === PG.ADMIN_SHUTDOWN || code === PG.CRASH_SHUTDOWN || code === PG.CANNOT_CONNECT_NOW || code.startsWith('08');
}

/**
 * True when the database aborted a statement because of another transaction running at the same
 * moment, not because of anything in the statement: a deadlock (two bookings that collide under
 * the exclusion constraints may each wait for the other, docs/behaviour.md#reservations) or a
 * serialization failure. Tried again, it meets the other transaction's outcome.
 */
export function isConcurrencyAbort(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === PG.DEADLOCK_DETECTED || code === PG.SERIALIZATION_FAILURE;
}

/** True when the database did not answer (down, unreachable, timed out, shutting down). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return isConnectionFailure(error) || pgErrorCode(error) === PG.QUERY_CANCELED;
}

/** The closure a reservation ran into (PG.CLOSED_DAY): the trigger puts it in the error's DETAIL as JSON. */
export function pgClosedDay(error: unknown): { closureId: string; date: string; reason: string } | undefined {
  const found = driverError(error);
  if (found?.code !== PG.CLOSED_DAY || typeof found.detail !== 'string') return undefined;
  try {
    const detail = JSON.parse(found.detail) as { closureId: string; date: string; reason: string };
    return { closureId: String(detail.closureId), date: String(detail.date), reason: String(detail.reason) };
  } catch {
    return undefined;
  }
}
