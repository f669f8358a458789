/**
 * When a failed message is tried again (docs/architecture.md#the-outbox): 1 min after the first
 * failure, then 2, 4, 8 … minutes, never more than an hour apart. `attempts` counts the tries so
 * far, the failed one included.
 */
export interface Backoff {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseMs: 60_000, capMs: 3_600_000 };

export function retryDelayMs(attempts: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  if (!Number.isInteger(attempts) || attempts < 1) return backoff.baseMs;
  // 2 ** 60 and beyond would lose precision long after the cap is reached.
  return Math.min(backoff.baseMs * 2 ** Math.min(attempts - 1, 40), backoff.capMs);
}

/** Whether a message that failed its `attempts`-th try is given up (dead) rather than retried. */
export const isDead = (attempts: number, maxAttempts: number): boolean => attempts >= maxAttempts;
