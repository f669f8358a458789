import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, setPasswordHashCost, verifyPassword } from '../../src/identity/password-hashing.js';

/** The cost of password hashes (PASSWORD_HASH_COST, docs/testing.md#password-hashing-in-tests). */
describe('password hashing', () => {
  afterEach(() => setPasswordHashCost('standard'));

  /** argon2id's parameters as the PHC string of a hash states them. */
  const parameters = (hash: string) => /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash)?.slice(1).map(Number);

  it('hashes at OWASP’s minimum cost by default (19 MiB, 2 passes)', async () => {
    expect(parameters(await hashPassword('a password'))).toEqual([19_456, 2, 1]);
  });

  it('hashes at the lowest cost once set to minimal, and hashes of either cost keep verifying', async () => {
    const standard = await hashPassword('first password');
    setPasswordHashCost('minimal');
    const minimal = await hashPassword('second password');
    expect(parameters(minimal)).toEqual([64, 1, 1]);
    expect(await verifyPassword(standard, 'first password')).toBe(true);
    expect(await verifyPassword(minimal, 'second password')).toBe(true);
    expect(await verifyPassword(minimal, 'first password')).toBe(false);
    expect(await verifyPassword(null, 'second password')).toBe(false);
    setPasswordHashCost('standard');
    expect(parameters(await hashPassword('third password'))).toEqual([19_456, 2, 1]);
  });
});
