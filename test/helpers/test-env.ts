/**
 * What every test service (test app, browser app, server process) runs with: passwords hashed at
 * the lowest argon2id cost, a setting config.ts accepts under NODE_ENV=test only
 * (docs/testing.md#password-hashing-in-tests). A test of the real cost passes PASSWORD_HASH_COST=standard.
 */
export const TEST_ONLY_ENV = { NODE_ENV: 'test', PASSWORD_HASH_COST: 'minimal' } as const;
