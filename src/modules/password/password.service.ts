import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { AppError } from '../../shared/errors.js';
import { revokeCredentials } from '../../identity/credentials.js';
import { hashPassword } from '../../identity/password-hashing.js';
import { ThrottleRepository, type LoginThrottle } from '../../identity/throttle.js';
import type { Mailer } from '../../infrastructure/mail/mailer.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { PasswordTokensRepository, type PasswordTokenPurpose } from './password.repository.js';

export interface PasswordMailSettings {
  publicUrl: string;
  resetTtlMs: number;
  setupTtlMs: number;
  /** PASSWORD_MAIL_COOLDOWN: at most one "forgot" mail per account per this time (0: no limit). */
  resetMailCooldownMs: number;
}

const resetMailKey = (userId: string) => `reset-mail:${userId}`;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Password links by e-mail (docs/behaviour.md#password-links-and-directory-sign-in): "forgot password" and "your account was created".
 * Tokens are 256 random bits, stored only as a hash, single use, expiring; a newer link makes
 * older ones invalid. Mails go out after the answer, so the answer to `forgot` is the same,
 * equally fast, for known and unknown addresses.
 */
export class PasswordService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly mailer: Mailer,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
    private readonly settings: PasswordMailSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** POST /api/password/forgot: limited per client address like sign-in; the mail is sent in the background. */
  async forgot(email: string, clientAddress: string): Promise<void> {
    await this.throttle.attemptFromAddress(clientAddress, this.clock.now());
    this.inBackground(async () => {
      const user = await new UsersRepository(this.db).findByEmail(email.trim());
      // Directory users change their password in the directory; disabled users cannot sign in anyway.
      if (!user || user.ldap || !user.enabled) return;
      if (!(await this.claimResetMail(user.id))) return;
      // A mail that did not go out does not hold the next request back.
      if (!(await this.sendLink(user, 'reset'))) await new ThrottleRepository(this.db).forget(resetMailKey(user.id));
    });
  }

  /**
   * Whether this request may mail a reset link: one per account per cooldown, decided by one
   * atomic upsert, so concurrent requests and several processes agree. A request in the cooldown
   * changes nothing: the link already mailed keeps working.
   */
  private async claimResetMail(userId: string): Promise<boolean> {
    if (this.settings.resetMailCooldownMs === 0) return true;
    const { retryAfter } = await new ThrottleRepository(this.db).hit(
      { key: resetMailKey(userId), limit: 1, windowMs: this.settings.resetMailCooldownMs },
      this.clock.now(),
    );
    return retryAfter === undefined;
  }

  /** After an admin creates a local user: a mail with a link to set the first password. */
  announceNewAccount(user: UserRow): void {
    if (user.ldap || !user.enabled) return;
    this.inBackground(() => this.sendLink(user, 'setup'));
  }

  /** After an admin changed the address of a user whose link was pending: a fresh link of that kind, to the new address. */
  announceAddressChange(user: UserRow, purpose: PasswordTokenPurpose): void {
    if (user.ldap || !user.enabled) return;
    this.inBackground(() => this.sendLink(user, purpose));
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

  /** Waits for mails still being sent (graceful shutdown, tests). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private inBackground(work: () => Promise<unknown>): void {
    const task: Promise<void> = work()
      .then(() => undefined)
      .catch((error: unknown) => this.log.error({ err: error }, 'password mail failed'))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Replaces the user's link with a new one and mails it; answers whether the mail went out. */
  private async sendLink(user: UserRow, purpose: PasswordTokenPurpose): Promise<boolean> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const ttl = purpose === 'reset' ? this.settings.resetTtlMs : this.settings.setupTtlMs;
    // Not stored when the address changed meanwhile: a link never goes to an address the user no longer has.
    if (!(await new PasswordTokensRepository(this.db).replace(user.id, user.email, hashToken(token), purpose, now, new Date(now.getTime() + ttl))))
      return false;
    const link = `${this.settings.publicUrl.replace(/\/$/, '')}/reset-password?token=${token}`;
    const hours = Math.round(ttl / 3_600_000);
    const validity = hours >= 1 ? `${hours} hour${hours === 1 ? '' : 's'}` : `${Math.round(ttl / 60_000)} minutes`;
    const greeting = `Hello ${user.firstName},`;
    const body =
      purpose === 'reset'
        ? {
            subject: 'Reset your Deskbook password',
            lead: 'someone (hopefully you) asked to reset the password of your Deskbook account.',
            action: 'Choose a new password',
            after: 'If you did not ask for this, ignore this mail: your password stays as it is.',
          }
        : {
            subject: 'Your Deskbook account is ready',
            lead: 'an account was created for you on Deskbook, where you can find and book a desk.',
            action: 'Set your password',
            after: `Then sign in with ${user.email}.`,
          };
    const sent = await this.mailer.send({
      to: user.email,
      subject: body.subject,
      text: `${greeting}\n\n${body.lead}\n\n${body.action} (the link works once, for ${validity}):\n${link}\n\n${body.after}\n`,
      html:
        `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body.lead)}</p>` +
        `<p><a href="${escapeHtml(link)}">${escapeHtml(body.action)}</a> (the link works once, for ${validity}).</p><p>${escapeHtml(body.after)}</p>`,
    });
    if (sent) this.log.info({ userId: user.id, purpose }, 'password link sent');
    return sent;
  }
}
