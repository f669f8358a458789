import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { revokeCredentials } from '../../identity/credentials.js';
import { hashPassword } from '../../identity/password-hashing.js';
import { ThrottleRepository, type LoginThrottle } from '../../identity/throttle.js';
import type { Mailer } from '../../infrastructure/mail/mailer.js';
import { passwordLinkMail } from '../../infrastructure/mail/templates.js';
import { DeliveryFailed, enqueue, type OutboxKind } from '../../infrastructure/outbox/outbox.js';
import type { Language } from '../../shared/languages.js';
import { languageOf } from '../preferences/preferences.access.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { PasswordTokensRepository, type PasswordTokenPurpose } from './password.repository.js';

export interface PasswordMailSettings {
  publicUrl: string;
  resetTtlMs: number;
  setupTtlMs: number;
  /** PASSWORD_MAIL_COOLDOWN: at most one "forgot" mail per account per this time (0: no limit). */
  resetMailCooldownMs: number;
  /** The server's default language, for people who chose none (docs/i18n.md#choosing-the-language). */
  defaultLanguage: Language;
}

/** The outbox kind of password links (docs/behaviour.md#password-links-and-directory-sign-in). */
export const PASSWORD_LINK_KIND = 'password.link';

/**
 * What a queued password mail holds: never the token. The link is minted when the mail is sent
 * (passwordLinkKind), so the outbox row is no credential, and a mail queued before a crash is
 * sent after it with a fresh link.
 */
export interface PasswordLinkPayload {
  purpose: PasswordTokenPurpose;
  /** The user, for links an admin's action sends. */
  userId?: string;
  /** The address asked for with "forgot password", as typed; the user is looked up when sending. */
  email?: string;
}

const resetMailKey = (userId: string) => `reset-mail:${userId}`;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Password links by e-mail (docs/behaviour.md#password-links-and-directory-sign-in): "forgot password" and "your account was created".
 * Tokens are 256 random bits, stored only as a hash, single use, expiring; a newer link makes
 * older ones invalid. Each mail is a row of the outbox, queued by the request (or the admin's
 * transaction) and sent by the outbox job: a crash between the two loses no mail, and the answer
 * to `forgot` is the same work, and as fast, for known and unknown addresses.
 */
export class PasswordService {
  constructor(
    private readonly db: Database,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    /** Asks the outbox job to run now (src/app.ts): a queued link should not wait for its interval. */
    private readonly sendSoon: () => void = () => {},
  ) {}

  /** POST /api/password/forgot: limited per client address like sign-in; the mail is queued whatever the address. */
  async forgot(email: string, clientAddress: string): Promise<void> {
    await this.throttle.attemptFromAddress(clientAddress, this.clock.now());
    const typed = email.trim();
    await enqueue(this.db, [{ kind: PASSWORD_LINK_KIND, groupKey: typed.toLowerCase(), payload: { purpose: 'reset', email: typed } }]);
    this.sendSoon();
  }

  /** After an admin creates a local user, in the creating transaction `tx`: a mail with a link to set the first password. */
  async announceNewAccount(tx: Database, user: UserRow): Promise<void> {
    if (user.ldap || !user.enabled) return;
    await this.queueLink(tx, user, 'setup');
  }

  /** After an admin changed the address of a user whose link was pending, in that transaction: a fresh link of that kind, to the new address. */
  async announceAddressChange(tx: Database, user: UserRow, purpose: PasswordTokenPurpose): Promise<void> {
    if (user.ldap || !user.enabled) return;
    await this.queueLink(tx, user, purpose);
  }

  /** The links queued by an admin's transaction were committed: send them now. */
  linksQueued(): void {
    this.sendSoon();
  }

  private async queueLink(tx: Database, user: UserRow, purpose: PasswordTokenPurpose): Promise<void> {
    await enqueue(tx, [{ kind: PASSWORD_LINK_KIND, groupKey: user.email.toLowerCase(), payload: { purpose, userId: user.id } }]);
  }

  /**
   * POST /api/password/reset: sets the password, consumes the token, ends every session of the
   * user. Limited per client address like sign-in, since each attempt costs a password hash.
   */
  async reset(token: string, password: string, clientAddress: string): Promise<void> {
    await this.throttle.attemptFromAddress(clientAddress, this.clock.now());
    // Hash first: the slow part stays outside the transaction.
    const passwordHash = await hashPassword(password);
    const email = await this.db.transaction(async (tx) => {
      const userId = await new PasswordTokensRepository(tx).consume(hashToken(token), this.clock.now());
      if (userId === undefined) throw new AppError('INVALID_RESET_TOKEN');
      const users = new UsersRepository(tx);
      const user = await users.findById(userId);
      if (!user || user.ldap || !user.enabled) throw new AppError('INVALID_RESET_TOKEN');
      await users.update(userId, { passwordHash, mustChangePassword: false }, this.clock.now());
      // The link was consumed above: this ends every session of the user.
      await revokeCredentials(tx, userId);
      return user.email;
    });
    // The owner proved control of the mailbox: earlier failed sign-ins no longer hold them up.
    await this.throttle.forgetAccount(email);
  }
}

/**
 * Sends the password links of the outbox (PASSWORD_LINK_KIND), one row a claim: the user is read
 * now (a directory or disabled user, or an unknown "forgot" address, gets nothing, and the row is
 * deleted); a "forgot" link honours PASSWORD_MAIL_COOLDOWN (decided by one atomic upsert, so
 * concurrent requests and several processes agree; a retry after a failed send does not ask again);
 * the token is minted and stored (as a hash) just before the mail goes out, and only while the
 * address is still the user's. A mail the SMTP server refused lifts the cooldown and is tried
 * again (5 tries: 1, 2, 4, 8 minutes apart), each try with a fresh link.
 */
export function passwordLinkKind(
  db: Database,
  mailer: Mailer,
  clock: Clock,
  settings: PasswordMailSettings,
  log: FastifyBaseLogger,
): OutboxKind<PasswordLinkPayload> {
  const throttle = new ThrottleRepository(db);
  const mayMailReset = async (userId: string) => {
    if (settings.resetMailCooldownMs === 0) return true;
    const { retryAfter } = await throttle.hit({ key: resetMailKey(userId), limit: 1, windowMs: settings.resetMailCooldownMs }, clock.now());
    return retryAfter === undefined;
  };
  return {
    kind: PASSWORD_LINK_KIND,
    maxAttempts: 5,
    async deliver(rows) {
      let sent = 0;
      for (const row of rows) {
        const { purpose, userId, email } = row.payload;
        const users = new UsersRepository(db);
        const user = userId !== undefined ? await users.findById(userId) : email !== undefined ? await users.findByEmail(email) : undefined;
        // Directory users change their password in the directory; disabled users cannot sign in anyway.
        if (!user || user.ldap || !user.enabled) continue;
        const asked = email !== undefined;
        if (asked && row.attempts === 1 && !(await mayMailReset(user.id))) continue;
        const token = randomBytes(32).toString('base64url');
        const now = clock.now();
        const ttlMs = purpose === 'reset' ? settings.resetTtlMs : settings.setupTtlMs;
        // Not stored when the address changed meanwhile: a link never goes to an address the user no longer has.
        if (!(await new PasswordTokensRepository(db).replace(user.id, user.email, hashToken(token), purpose, now, new Date(now.getTime() + ttlMs)))) continue;
        const link = `${settings.publicUrl.replace(/\/$/, '')}/reset-password?token=${token}`;
        const language = await languageOf(db, user.id, settings.defaultLanguage);
        if (!(await mailer.send(passwordLinkMail({ to: user.email, firstName: user.firstName, purpose, link, ttlMs, language })))) {
          // A mail that did not go out does not hold the next request back.
          if (asked) await throttle.forget(resetMailKey(user.id));
          throw new DeliveryFailed('the SMTP server did not accept the password mail', sent);
        }
        log.info({ userId: user.id, purpose }, 'password link sent');
        sent++;
      }
      return sent;
    },
  };
}
