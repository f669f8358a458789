import { availableParallelism } from 'node:os';
import { hash, verify, type Options } from '@node-rs/argon2';
import pLimit from 'p-limit';

export type PasswordHashCost = 'standard' | 'minimal';

// algorithm 2 = Argon2id (a const enum, which isolated modules cannot import).
const COSTS: Record<PasswordHashCost, Options> = {
  /** OWASP's recommended minimum cost (19 MiB, 2 passes). */
  standard: { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  /**
   * The lowest argon2id allows, for test suites only (PASSWORD_HASH_COST=minimal, which config.ts
   * accepts with NODE_ENV=test alone; docs/testing.md#password-hashing-in-tests).
   */
  minimal: { algorithm: 2, memoryCost: 64, timeCost: 1, parallelism: 1 },
};
let options: Options = COSTS.standard;

/**
 * The cost of the hashes made from now on, set by the service at start from PASSWORD_HASH_COST.
 * Verifying reads the cost from the stored hash, so hashes of either cost keep verifying.
 */
export function setPasswordHashCost(cost: PasswordHashCost): void {
  if (options === COSTS[cost]) return;
  options = COSTS[cost];
  decoyHash = undefined;
}

/**
 * Each hash holds its 19 MiB while it runs, on libuv's pool (4 threads): a burst of sign-ins held
 * 4 × 19 MiB at once. No more run at once than there are cores (at most 4), which the CPU-bound
 * hashes could not use anyway (docs/benchmarks.md#memory).
 */
export const MAX_CONCURRENT_HASHES = Math.min(4, availableParallelism());
const hashing = pLimit(MAX_CONCURRENT_HASHES);

export const hashPassword = (password: string): Promise<string> => hashing(() => hash(password, options));

// Verified against when the account does not exist, so that a wrong e-mail costs as much time as a wrong password.
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) {
    decoyHash ??= hashPassword('decoy password that matches nothing');
    const decoy = await decoyHash;
    await hashing(() => verify(decoy, password)).catch(() => false);
    return false;
  }
  return hashing(() => verify(passwordHash, password)).catch(() => false);
}
