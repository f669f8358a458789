import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { UsersRepository, type UserRow } from '../modules/users/users.repository.js';

/**
 * Makes a user ADMIN or USER as their identity provider or directory says, at each sign-in
 * (docs/behaviour.md#roles-from-the-provider-or-the-directory). The last enabled admin is never
 * demoted: the change is skipped and logged. Serialised with every other admin change.
 */
export async function syncRole(
  db: Database,
  input: { userId: string; admin: boolean; source: 'oidc' | 'ldap'; now: Date },
  log: FastifyBaseLogger,
): Promise<UserRow | undefined> {
  const wanted = input.admin ? 'ADMIN' : 'USER';
  return db.transaction(async (tx) => {
    const users = new UsersRepository(tx);
    await users.lockAdmins();
    const user = await users.findById(input.userId);
    if (!user || user.role === wanted) return user;
    if (wanted === 'USER' && user.enabled && (await users.countOtherEnabledAdmins(user.id)) === 0) {
      log.warn(
        { userId: user.id, source: input.source },
        'the last enabled admin is no longer an admin at the identity provider or directory; kept as ADMIN (make another user an admin first)',
      );
      return user;
    }
    log.info({ userId: user.id, source: input.source, role: wanted }, 'role changed from the identity provider or directory');
    return users.update(user.id, { role: wanted }, input.now);
  });
}
