/**
 * What every test service (test app, browser app, server process) runs with: passwords hashed at
 * the lowest argon2id cost, a setting config.ts accepts under NODE_ENV=test only
 * (docs/testing.md#password-hashing-in-tests). A test of the real cost passes PASSWORD_HASH_COST=standard.
 *
 * The accounts tests give a password through `PUT /api/users/{id}/password` are fixtures, so they
 * keep it (PASSWORD_CHANGE_AFTER_ADMIN_SET=false, docs/testing.md#passwords-set-by-tests); the
 * tests of the forced change pass `true`, the service's default.
 */
export const TEST_ONLY_ENV = { NODE_ENV: 'test', PASSWORD_HASH_COST: 'minimal', PASSWORD_CHANGE_AFTER_ADMIN_SET: 'false' } as const;
