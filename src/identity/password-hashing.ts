import { availableParallelism } from 'node:os';
import { hash, verify, type Options } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** argon2id with OWASP's recommended minimum cost (19 MiB, 2 passes). */
// algorithm 2 = Argon2id (a const enum, which isolated modules cannot import).
const OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Each hash holds its 19 MiB while it runs, on libuv's pool (4 threads): a burst of sign-ins held
 * 4 × 19 MiB at once. No more run at once than there are cores (at most 4), which the CPU-bound
 * hashes could not use anyway (docs/benchmarks.md#memory).
 */
export const MAX_CONCURRENT_HASHES = Math.min(4, availableParallelism());
const hashing = pLimit(MAX_CONCURRENT_HASHES);

export const hashPassword = (password: string): Promise<string> => hashing(() => hash(password, OPTIONS));

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
