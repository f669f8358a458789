import { pgErrorCode, PG } from '../../db/errors.js';
import type { Database } from '../../db/client.js';
import { AppError, forbidden, notFound } from '../../shared/errors.js';
import type { Clock } from '../../shared/clock.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { hashPassword, verifyPassword } from '../../identity/password-hashing.js';
import type { LoginThrottle } from '../../identity/throttle.js';
import { CredentialsRepository, revokeCredentials, type PasswordTokenPurpose } from '../../identity/credentials.js';
import type { CreateUserBody, UpdateSelfBody, UpdateUserBody, UserDto, UserListQuery } from './users.schemas.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { toUserDto } from './users.mappers.js';
import { forgetGroups } from '../../infrastructure/outbox/outbox.js';
import { USER_SORTABLE, USER_SORTABLE_BY_ADMIN, UsersRepository, type UserPatch, type UserRow } from './users.repository.js';

const emailTaken = (email: string) => new AppError('EMAIL_TAKEN', `A user with e-mail ${email} already exists`);

/** Mails password links on behalf of admin actions (PasswordService): queued in the admin's transaction `tx`. */
export interface PasswordLinkMailer {
  /** A new local account: a link to set the first password. */
  announceNewAccount(tx: Database, user: UserRow): Promise<void>;
  /** The address changed while a link was pending: a fresh link of the same kind to the new address. */
  announceAddressChange(tx: Database, user: UserRow, purpose: PasswordTokenPurpose): Promise<void>;
  /** The transaction that queued links committed: send them now. */
  linksQueued(): void;
}

export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly throttle: LoginThrottle,
    private readonly links?: PasswordLinkMailer,
    /** PASSWORD_CHANGE_AFTER_ADMIN_SET: a password an admin sets for someone else must be replaced at their next sign-in. */
    private readonly changeAfterAdminSet = true,
  ) {}

  private get users() {
    return new UsersRepository(this.db);
  }

  async list(caller: Caller, query: UserListQuery): Promise<PageOf<UserDto>> {
    const admin = isAdmin(caller);
    if (!admin && (query.role !== undefined || query.enabled !== undefined || query.ldap !== undefined)) {
      throw forbidden('Only admins may filter users by role, enabled or ldap');
    }
    const request = parsePageRequest(query, admin ? USER_SORTABLE_BY_ADMIN : USER_SORTABLE);
    const { rows, total } = await this.users.page(query, request);
    return pageOf(
      rows.map((row) => toUserDto(row, admin)),
      total,
      request,
    );
  }

  async get(caller: Caller, id: string): Promise<UserDto> {
    const row = await this.users.findById(id);
    if (!row) throw notFound('User', id);
    return toUserDto(row, isAdmin(caller));
  }

  async create(body: CreateUserBody): Promise<UserDto> {
    try {
      const row = await this.db.transaction(async (tx) => {
        const inserted = await new UsersRepository(tx).insert(
          {
            email: body.email.trim(),
            firstName: body.firstName.trim(),
            lastName: body.lastName.trim(),
            role: body.role ?? 'USER',
            enabled: body.enabled ?? true,
            ldap: body.ldap ?? false,
          },
          this.clock.now(),
        );
        // The account mail is queued with the account (docs/architecture.md#the-outbox).
        await this.links?.announceNewAccount(tx, inserted);
        return inserted;
      });
      this.links?.linksQueued();
      return toUserDto(row, true);
    } catch (error) {
      if (pgErrorCode(error) === PG.UNIQUE_VIOLATION) throw emailTaken(body.email);
      throw error;
    }
  }

  /**
   * Admin change of a user. Disabling, or switching to the directory (which drops the local
   * password), revokes the user's sessions at once. The last enabled admin cannot be disabled,
   * demoted or made a directory user (a directory outage must not lock every admin out).
   */
  async update(id: string, body: UpdateUserBody): Promise<UserDto> {
    const patch: UserPatch = {};
    if (body.firstName !== undefined) patch.firstName = body.firstName.trim();
    if (body.lastName !== undefined) patch.lastName = body.lastName.trim();
    if (body.email !== undefined) patch.email = body.email.trim();
    if (body.role !== undefined) patch.role = body.role;
    if (body.enabled !== undefined) patch.enabled = body.enabled;
    if (body.ldap !== undefined) patch.ldap = body.ldap;
    if (body.ldap === true) patch.passwordHash = null;
    const now = this.clock.now();
    try {
      const { row, resend } = await this.db.transaction(async (tx) => {
        const users = new UsersRepository(tx);
        const losesAdmin = body.role === 'USER' || body.enabled === false || body.ldap === true;
        if (losesAdmin) await this.ensureAnotherAdmin(users, id);
        const before = patch.email === undefined ? undefined : await users.findById(id);
        const updated = await users.update(id, patch, now);
        if (!updated) throw notFound('User', id);
        if (body.enabled === false || body.ldap === true) {
          await revokeCredentials(tx, id);
          return { row: updated };
        }
        if (before && before.email.toLowerCase() !== updated.email.toLowerCase()) {
          // A link mailed to the old (perhaps mistyped) address must not outlive it; a live one is sent anew to the new address.
          const pending = await new CredentialsRepository(tx).deletePasswordLink(id);
          const resend = pending && pending.expiresAt > now ? pending.purpose : undefined;
          if (resend) await this.links?.announceAddressChange(tx, updated, resend);
          return { row: updated, resend };
        }
        return { row: updated };
      });
      if (resend) this.links?.linksQueued();
      return toUserDto(row, true);
    } catch (error) {
      if (pgErrorCode(error) === PG.UNIQUE_VIOLATION) throw emailTaken(body.email ?? '');
      throw error;
    }
  }

  /** Deletes a user; their sessions go with them (foreign key cascade). */
  async delete(id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const users = new UsersRepository(tx);
      await this.ensureAnotherAdmin(users, id);
      const target = await users.findById(id);
      if (!target || !(await users.delete(id))) throw notFound('User', id);
      // Mails still queued for them go too (their invitations by id, their password links by address).
      await forgetGroups(tx, [id, target.email.toLowerCase()]);
    });
  }

  private async ensureAnotherAdmin(users: UsersRepository, id: string): Promise<void> {
    await users.lockAdmins();
    const target = await users.findById(id);
    if (!target) throw notFound('User', id);
    if (target.role === 'ADMIN' && target.enabled && (await users.countOtherEnabledAdmins(id)) === 0) {
      throw new AppError('LAST_ADMIN', 'This is the last enabled admin; make another user an admin first');
    }
  }

  async updateSelf(caller: Caller, body: UpdateSelfBody): Promise<UserDto> {
    const patch: UserPatch = {};
    if (body.firstName !== undefined) patch.firstName = body.firstName.trim();
    if (body.lastName !== undefined) patch.lastName = body.lastName.trim();
    const row = await this.users.update(caller.user.id, patch, this.clock.now());
    if (!row) throw notFound('User', caller.user.id);
    return toUserDto(row, true);
  }

  /**
   * Admin sets a local user's password; that user's sessions are revoked (the admin's own current
   * one is kept). Someone else's password is known to the admin who typed it: that person must
   * choose their own at the next sign-in, unless PASSWORD_CHANGE_AFTER_ADMIN_SET is off
   * (docs/behaviour.md#passwords-chosen-by-someone-else). An admin setting their own chose it.
   */
  async setPassword(caller: Caller, id: string, password: string): Promise<void> {
    const target = await this.users.findById(id);
    if (!target) throw notFound('User', id);
    if (target.ldap) throw new AppError('DIRECTORY_USER');
    const passwordHash = await hashPassword(password);
    const mustChangePassword = id !== caller.user.id && this.changeAfterAdminSet;
    await this.db.transaction(async (tx) => {
      await new UsersRepository(tx).update(id, { passwordHash, mustChangePassword }, this.clock.now());
      await revokeCredentials(tx, id, id === caller.user.id ? caller.sessionId : undefined);
    });
    // A fresh password: failed sign-ins against the old one no longer hold anyone up.
    await this.throttle.forgetAccount(target.email);
  }

  /** The caller changes their own password; their other sessions are revoked. */
  async changeOwnPassword(caller: Caller, currentPassword: string, newPassword: string, clientAddress: string): Promise<void> {
    // The caller carries no password hash (src/identity/caller.ts): the row is read here.
    const user = await new UsersRepository(this.db).findById(caller.user.id);
    if (!user) throw new AppError('INVALID_TOKEN');
    if (user.ldap) throw new AppError('DIRECTORY_USER');
    // A stolen access token must not become a password-guessing oracle: same limits as sign-in.
    const now = this.clock.now();
    await this.throttle.beforePasswordCheck(user.email, clientAddress, now);
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      await this.throttle.passwordRefused(user.email, now);
      throw new AppError('INVALID_CURRENT_PASSWORD', 'currentPassword is wrong', { errors: [{ field: 'currentPassword', message: 'is wrong' }] });
    }
    await this.throttle.passwordAccepted(user.email, clientAddress);
    // A password printed in a log or typed by an admin is replaced by one only its owner knows
    // (docs/behaviour.md#passwords-chosen-by-someone-else): the same one again is refused.
    if (newPassword === currentPassword) {
      throw new AppError('PASSWORD_UNCHANGED', 'newPassword is the current password; choose another one', {
        errors: [{ field: 'newPassword', message: 'must differ from the current password' }],
      });
    }
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction(async (tx) => {
      await new UsersRepository(tx).update(user.id, { passwordHash, mustChangePassword: false }, this.clock.now());
      await revokeCredentials(tx, user.id, caller.sessionId);
    });
  }
}
