import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { hashPassword } from '../../identity/password-hashing.js';
import { UsersRepository } from './users.repository.js';

export const GENERATED_ADMIN_EMAIL = 'admin@localhost';

/**
 * Bootstraps an admin only while no admin exists, whatever the settings: a deleted admin is never
 * brought back by a restart. Then ADMIN_EMAIL + ADMIN_PASSWORD create that admin (unless a user has
 * the address); without them admin@localhost is created with a random password that is printed
 * once. Safe when several processes start at once (unique e-mail, insert-if-absent).
 */
export async function ensureFirstAdmin(db: Database, options: { email?: string; password?: string }, log: FastifyBaseLogger, clock: Clock): Promise<void> {
  const users = new UsersRepository(db);
  if (await users.anyAdminExists()) return;
  // "Admin" is what the web app greets them by ("Hello Admin") until they put their own name on
  // their profile (docs/behaviour.md#an-empty-install); it was "Deskbook", greeted "Hello Deskbook".
  const base = { firstName: 'Admin', lastName: 'Deskbook', role: 'ADMIN' as const, enabled: true, ldap: false };
  if (options.email !== undefined && options.password !== undefined) {
    const created = await users.insertIfAbsent({ ...base, email: options.email, passwordHash: await hashPassword(options.password) }, clock.now());
    if (created) log.info({ email: created.email }, 'created the first admin from ADMIN_EMAIL');
    // A twin process may have created it at the same moment; otherwise a non-admin has the address.
    else if (!(await users.anyAdminExists()))
      log.warn({ email: options.email }, 'No admin exists and ADMIN_EMAIL belongs to a user who is not an admin; no admin was created');
    return;
  }
  const password = randomBytes(15).toString('base64url');
  // A printed password lives on in logs: the account must choose its own before anything else.
  const created = await users.insertIfAbsent(
    { ...base, email: GENERATED_ADMIN_EMAIL, passwordHash: await hashPassword(password), mustChangePassword: true },
    clock.now(),
  );
  if (created) {
    log.warn(
      `No admin existed: created ${GENERATED_ADMIN_EMAIL} with password ${password} (shown only this once; sign in and choose your own, which it asks for first, or set ADMIN_EMAIL and ADMIN_PASSWORD)`,
    );
  } else if (!(await users.anyAdminExists())) {
    log.warn(`No admin exists and ${GENERATED_ADMIN_EMAIL} is taken by a non-admin; set ADMIN_EMAIL and ADMIN_PASSWORD to create one`);
  }
}
