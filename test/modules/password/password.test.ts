import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox, passwordTokens, users } from '../../../src/db/schema.js';
import { openDatabase } from '../../../src/db/client.js';
import { PasswordTokensRepository } from '../../../src/modules/password/password.repository.js';
import { createTestApp, drainOutbox, expectProblem, type TestApp, type UserBody } from '../../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.js';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../../helpers/smtp.js';

const PUBLIC_URL = 'https://desk.example.test';
const MAIL_FROM_ADDRESS = 'no-reply@desk.example.test';
const MAIL_FROM = `Deskbook Test <${MAIL_FROM_ADDRESS}>`;
const HOUR = 3_600_000;

/** The one reset link of a mail's text body (and the same link in its HTML part), checked against `base`. */
function linkOf(mail: ReceivedMail, base = PUBLIC_URL): { link: string; token: string } {
  const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
  expect(links, `links in the text of mail #${mail.seq}:\n${mail.text}`).toHaveLength(1);
  const link = links[0]!;
  const match = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/reset-password\\?token=([A-Za-z0-9_-]+)$`).exec(link);
  expect(match, `link ${link}`).not.toBeNull();
  const token = match![1]!;
  // 256 random bits at least: not guessable.
  expect(token.length).toBeGreaterThanOrEqual(32);
  if (mail.html !== undefined) expect(mail.html).toContain(`href="${link}"`);
  return { link, token };
}

const forgotOn = (t: TestApp, email: string, remoteAddress?: string) =>
  t.request({ method: 'POST', url: '/api/password/forgot', payload: { email }, ...(remoteAddress ? { remoteAddress } : {}) });
const resetOn = (t: TestApp, payload: unknown, remoteAddress?: string) =>
  t.request({ method: 'POST', url: '/api/password/reset', payload: payload as Record<string, unknown>, ...(remoteAddress ? { remoteAddress } : {}) });
const loginStatusOn = async (t: TestApp, email: string, password: string) =>
  (await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).statusCode;

describe('password links by e-mail', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  let counter = 0;

  const forgot = (email: string) => forgotOn(t, email);
  const reset = (payload: unknown) => resetOn(t, payload);
  const loginStatus = (email: string, password: string) => loginStatusOn(t, email, password);
  const fieldsOf = (problem: { errors?: { field: string }[] }) => problem.errors?.map((error) => error.field) ?? [];

  /** The first mail to `email` received after mail number `since`. */
  const mailTo = (email: string, since: number, timeoutMs = 10_000) =>
    smtp.waitForMail((mail) => mail.seq >= since && mail.envelopeTo.includes(email.toLowerCase()), timeoutMs);

  /** Every mail to `email` received so far after mail number `since`. */
  const mailsTo = (email: string, since: number) => smtp.mails.filter((mail) => mail.seq >= since && mail.envelopeTo.includes(email.toLowerCase()));

  /** A fresh local, enabled USER with a password; its "your account" mail has arrived (so no link of it is still being made). */
  async function freshUser(password = 'old-password-1'): Promise<{ user: UserBody; password: string }> {
    counter += 1;
    const user = await t.createUser({ email: `pw.user.${counter}@example.test`, firstName: 'Pat', lastName: `User${counter}`, password });
    // The account mail goes out in the background; once the admin set a password it may not go
    // out at all (no "set your password" link for an account that has one).
    await drainOutbox(t.app);
    return { user, password };
  }

  /** Asks for a reset link for `email` and answers the mail and the token in its link. */
  async function resetLinkFor(email: string, askAs = email): Promise<{ mail: ReceivedMail; token: string; link: string }> {
    const since = smtp.mails.length;
    const response = await forgot(askAs);
    expect(response.statusCode).toBe(200);
    const mail = await mailTo(email, since);
    return { mail, ...linkOf(mail) };
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    // Several links for one user in a row: the cooldown between reset mails is off here (tested below).
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, OUTBOX_INTERVAL: '1s', PUBLIC_URL, MAIL_FROM, LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000', PASSWORD_MAIL_COOLDOWN: '0' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  describe('POST /api/password/forgot', () => {
    it('answers 200 with the same body for a known, an unknown and a differently-cased known address, without a token', async () => {
      const { user } = await freshUser();
      const since = smtp.mails.length;
      const known = await forgot(user.email);
      const unknown = await forgot('nobody.at.all@example.test');
      const cased = await forgot(user.email.toUpperCase());
      for (const response of [known, unknown, cased]) {
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
      }
      expect(known.json()).toEqual({ message: expect.any(String) });
      expect(unknown.body).toBe(known.body);
      expect(cased.body).toBe(known.body);
      // Both the exact and the differently-cased address reach the user's mailbox.
      await smtp.waitForMail(() => mailsTo(user.email, since).length >= 2, 10_000);
    });

    it('mails a link to PUBLIC_URL/reset-password?token=… to the user, from MAIL_FROM', async () => {
      const { user } = await freshUser();
      const { mail, link, token } = await resetLinkFor(user.email);
      expect(mail.envelopeTo).toEqual([user.email]);
      expect(mail.to).toContain(user.email);
      expect(mail.envelopeFrom).toBe(MAIL_FROM_ADDRESS);
      expect(mail.from).toContain(MAIL_FROM_ADDRESS);
      expect(mail.from).toContain('Deskbook Test');
      expect(mail.subject).toMatch(/password/i);
      expect(link).toBe(`${PUBLIC_URL}/reset-password?token=${token}`);
      expect(mail.text).toContain('Pat');
    });

    it('refuses an unknown body member and a missing e-mail with 400', async () => {
      const extra = await t.request({ method: 'POST', url: '/api/password/forgot', payload: { email: 'x@example.test', admin: true } });
      expect(fieldsOf(expectProblem(extra, 400, 'VALIDATION_FAILED'))).toContain('admin');
      const missing = await t.request({ method: 'POST', url: '/api/password/forgot', payload: {} });
      expect(fieldsOf(expectProblem(missing, 400, 'VALIDATION_FAILED'))).toContain('email');
    });

    it('mails nobody for unknown addresses, directory (ldap) users and disabled users', async () => {
      const ldapUser = await t.createUser({ email: `ldap.${++counter}@example.test`, ldap: true });
      const disabled = await t.createUser({ email: `disabled.${++counter}@example.test`, password: 'disabled-pass-1', enabled: false });
      const { user: sentinel } = await freshUser();
      const since = smtp.mails.length;
      for (const email of [ldapUser.email, disabled.email, 'unknown.person@example.test', `UNKNOWN.${++counter}@example.test`]) {
        expect((await forgot(email)).statusCode).toBe(200);
      }
      // Once every background mail is sent, any mail but the sentinel's would be here too.
      expect((await forgot(sentinel.email)).statusCode).toBe(200);
      await mailTo(sentinel.email, since);
      await drainOutbox(t.app);
      expect(smtp.mails.slice(since).map((mail) => mail.envelopeTo)).toEqual([[sentinel.email]]);
    });
  });

  describe('POST /api/password/reset', () => {
    it('sets the password, ends every session of the user and consumes the token', async () => {
      const { user, password } = await freshUser();
      const sessions = [await t.login(user.email, password), await t.login(user.email, password)];
      for (const pair of sessions) expect((await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).statusCode).toBe(200);

      const { token } = await resetLinkFor(user.email);
      const response = await reset({ token, password: 'new-password-1' });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');

      expect(await loginStatus(user.email, 'new-password-1')).toBe(200);
      expect(await loginStatus(user.email, password)).toBe(401);
      for (const pair of sessions) {
        expectProblem(await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken }), 401);
        expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }), 401);
      }
      // Single use, even with another valid password.
      expectProblem(await reset({ token, password: 'third-password-1' }), 400, 'INVALID_RESET_TOKEN');
      expect(await loginStatus(user.email, 'new-password-1')).toBe(200);
      expect(await loginStatus(user.email, 'third-password-1')).toBe(401);
    });

    it('lifts "must change password" (docs/behaviour.md, "Generated passwords")', async () => {
      const { user, password } = await freshUser();
      await t.database.handle.db.update(users).set({ mustChangePassword: true }).where(eq(users.id, user.id));
      const held = await t.login(user.email, password);
      expectProblem(await t.request({ method: 'GET', url: '/api/users', token: held.accessToken }), 403, 'PASSWORD_CHANGE_REQUIRED');
      const { token } = await resetLinkFor(user.email);
      expect((await reset({ token, password: 'reset-choice-pw-1' })).statusCode).toBe(204);
      const pair = await t.login(user.email, 'reset-choice-pw-1');
      expect((await t.request({ method: 'GET', url: '/api/users', token: pair.accessToken })).statusCode).toBe(200);
    });

    it('works with the link asked for with a differently-cased address', async () => {
      const { user } = await freshUser();
      const { token } = await resetLinkFor(user.email, `  ${user.email.toUpperCase()}`);
      expect((await reset({ token, password: 'cased-password-1' })).statusCode).toBe(204);
      expect(await loginStatus(user.email, 'cased-password-1')).toBe(200);
    });

    it('leaves the token usable after a refused password', async () => {
      const { user, password } = await freshUser();
      const { token } = await resetLinkFor(user.email);
      for (const refused of ['seven77', 'x'.repeat(257), '']) {
        const problem = expectProblem(await reset({ token, password: refused }), 400, 'VALIDATION_FAILED');
        expect(fieldsOf(problem)).toContain('password');
      }
      expect(await loginStatus(user.email, password)).toBe(200);
      expect((await reset({ token, password: 'eight888' })).statusCode).toBe(204);
      expect(await loginStatus(user.email, 'eight888')).toBe(200);
    });

    it('accepts only the newest link', async () => {
      const { user } = await freshUser();
      const first = await resetLinkFor(user.email);
      const second = await resetLinkFor(user.email);
      expect(second.token).not.toBe(first.token);
      expectProblem(await reset({ token: first.token, password: 'first-link-pw-1' }), 400, 'INVALID_RESET_TOKEN');
      expect((await reset({ token: second.token, password: 'second-link-pw-1' })).statusCode).toBe(204);
      expect(await loginStatus(user.email, 'second-link-pw-1')).toBe(200);
      expect(await loginStatus(user.email, 'first-link-pw-1')).toBe(401);
    });

    it('leaves only one link working when several are asked for at the same time', async () => {
      const { user } = await freshUser();
      // A few rounds: on PostgreSQL concurrent requests really overlap, so a missing lock shows up.
      for (let round = 0; round < 3; round++) {
        const since = smtp.mails.length;
        const answers = await Promise.all([1, 2, 3].map(() => forgot(user.email)));
        expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200]);
        await smtp.waitForMail(() => mailsTo(user.email, since).length >= 3, 10_000);
        const tokens = mailsTo(user.email, since).map((mail) => linkOf(mail).token);
        const statuses = [];
        for (const token of tokens) statuses.push((await reset({ token, password: `concurrent-pw-${round}` })).statusCode);
        expect(
          statuses.filter((status) => status === 204),
          `round ${round}: ${statuses.join(', ')}`,
        ).toHaveLength(1);
        expect(statuses.filter((status) => status === 400)).toHaveLength(2);
      }
    });

    it('accepts a link within the hour and refuses it after the hour', async () => {
      const { user, password } = await freshUser();
      const early = await resetLinkFor(user.email);
      t.clock.advance(HOUR - 60_000);
      try {
        expect((await reset({ token: early.token, password: 'in-time-pw-1' })).statusCode).toBe(204);
      } finally {
        t.clock.advance(-(HOUR - 60_000));
      }

      const late = await resetLinkFor(user.email);
      t.clock.advance(HOUR + 1000);
      try {
        expectProblem(await reset({ token: late.token, password: 'too-late-pw-1' }), 400, 'INVALID_RESET_TOKEN');
      } finally {
        t.clock.advance(-(HOUR + 1000));
      }
      expect(await loginStatus(user.email, 'in-time-pw-1')).toBe(200);
      expect(await loginStatus(user.email, 'too-late-pw-1')).toBe(401);
      expect(await loginStatus(user.email, password)).toBe(401);
    });

    it('refuses unknown and garbage tokens with 400 INVALID_RESET_TOKEN', async () => {
      const { user } = await freshUser();
      const { token } = await resetLinkFor(user.email);
      const [row] = await t.database.handle.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
      expect(row).toBeDefined();
      const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      // The stored hash itself is no token either.
      for (const garbage of [
        randomBytes(32).toString('base64url'),
        'garbage',
        flipped,
        `${token}x`,
        token.toUpperCase(),
        row!.tokenHash,
        ' ',
        '%00',
        'x'.repeat(200),
      ]) {
        expectProblem(await reset({ token: garbage, password: 'garbage-pw-1' }), 400, 'INVALID_RESET_TOKEN');
      }
      // The real one still works.
      expect((await reset({ token, password: 'real-token-pw-1' })).statusCode).toBe(204);
    });

    it('refuses bad bodies with 400 VALIDATION_FAILED', async () => {
      const cases: { payload: unknown; field?: string; code?: string }[] = [
        { payload: { token: 'abc', password: 'long-enough-1', email: 'x@example.test' }, field: 'email' },
        { payload: { password: 'long-enough-1' }, field: 'token' },
        { payload: { token: 'abc' }, field: 'password' },
        { payload: { token: '', password: 'long-enough-1' }, field: 'token' },
        { payload: { token: 'x'.repeat(201), password: 'long-enough-1' }, field: 'token' },
        { payload: { token: 12345, password: 'long-enough-1' }, field: 'token' },
        { payload: '{"token": "abc", "password": ', code: 'MALFORMED_JSON' },
      ];
      for (const item of cases) {
        const response = await t.request({
          method: 'POST',
          url: '/api/password/reset',
          payload: item.payload as string,
          headers: { 'content-type': 'application/json' },
        });
        const problem = expectProblem(response, 400, item.code ?? 'VALIDATION_FAILED');
        if (item.field) expect(fieldsOf(problem)).toContain(item.field);
      }
    });

    it('stores only a hash of the token', async () => {
      const { user } = await freshUser();
      const { token } = await resetLinkFor(user.email);
      const rows = await t.database.handle.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row.purpose).toBe('reset');
      expect(row.tokenHash).not.toBe(token);
      expect(row.tokenHash).not.toContain(token);
      expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(HOUR);
      for (const other of await t.database.handle.db.select().from(passwordTokens)) {
        expect(other.tokenHash).not.toContain(token);
        expect(token).not.toContain(other.tokenHash);
      }
      // Once used, the token is gone.
      expect((await reset({ token, password: 'hashed-token-pw-1' })).statusCode).toBe(204);
      expect(await t.database.handle.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).toHaveLength(0);
    });
  });

  describe("changing a user's e-mail address", () => {
    const changeEmail = async (id: string, email: string) => {
      const response = await t.request({ method: 'PUT', url: `/api/users/${id}`, token: await t.adminToken(), payload: { email } });
      expect(response.statusCode, response.body).toBe(200);
    };

    it('ends a "set your password" link mailed to a mistyped address and mails a fresh one to the corrected address', async () => {
      counter += 1;
      const wrong = `new.person.${counter}@exmaple.test`;
      const right = `new.person.${counter}@example.test`;
      const since = smtp.mails.length;
      const user = await t.createUser({ email: wrong, firstName: 'Mia', lastName: 'Typo' });
      const stale = linkOf(await mailTo(wrong, since));

      const corrected = smtp.mails.length;
      await changeEmail(user.id, right);
      expectProblem(await reset({ token: stale.token, password: 'stolen-link-pw-1' }), 400, 'INVALID_RESET_TOKEN');
      const mail = await mailTo(right, corrected);
      expect(mail.subject).toMatch(/account/i);
      const fresh = linkOf(mail);
      expect(fresh.token).not.toBe(stale.token);
      expect((await reset({ token: fresh.token, password: 'own-choice-pw-1' })).statusCode).toBe(204);
      expect(await loginStatus(right, 'own-choice-pw-1')).toBe(200);
      expect(await loginStatus(right, 'stolen-link-pw-1')).toBe(401);
      expect(mailsTo(wrong, corrected)).toEqual([]);
    });

    it('ends a pending reset link and mails a fresh reset link to the new address', async () => {
      const { user, password } = await freshUser();
      const old = await resetLinkFor(user.email);
      const moved = `moved.${counter}@example.test`;
      const since = smtp.mails.length;
      await changeEmail(user.id, moved);
      expectProblem(await reset({ token: old.token, password: 'old-address-pw-1' }), 400, 'INVALID_RESET_TOKEN');
      const mail = await mailTo(moved, since);
      expect(mail.subject).toMatch(/reset/i);
      expect((await reset({ token: linkOf(mail).token, password: 'new-address-pw-1' })).statusCode).toBe(204);
      expect(await loginStatus(moved, 'new-address-pw-1')).toBe(200);
      expect(await loginStatus(moved, password)).toBe(401);
    });

    it('mails nothing when no link was pending, and keeps a link when only the case of the address changes', async () => {
      const { user } = await freshUser();
      const quiet = `quiet.${counter}@example.test`;
      const since = smtp.mails.length;
      await changeEmail(user.id, quiet);
      const pending = await resetLinkFor(quiet);
      await changeEmail(user.id, `Quiet.${counter}@Example.test`);
      // A new account without a password: its "set your password" mail goes out.
      const sentinel = await t.createUser({ email: `sentinel.${++counter}@example.test` });
      await drainOutbox(t.app);
      // Only the reset link asked for, and the sentinel's account mail.
      expect(smtp.mails.slice(since).map((mail) => mail.envelopeTo[0])).toEqual([quiet, sentinel.email]);
      expect((await reset({ token: pending.token, password: 'same-mailbox-pw-1' })).statusCode).toBe(204);
    });

    it('never stores a link for an address the user no longer has (a "forgot" that read the user before the change)', async () => {
      const { user } = await freshUser();
      const moved = `raced.${counter}@example.test`;
      await changeEmail(user.id, moved);
      const links = new PasswordTokensRepository(t.database.handle.db);
      const now = t.clock.now();
      const later = new Date(now.getTime() + HOUR);
      expect(await links.replace(user.id, user.email, 'hash-for-the-old-address', 'reset', now, later)).toBe(false);
      expect(await t.database.handle.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).toEqual([]);
      expect(await links.replace(user.id, moved, 'hash-for-the-new-address', 'reset', now, later)).toBe(true);
      expect((await t.database.handle.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).map((row) => row.tokenHash)).toEqual([
        'hash-for-the-new-address',
      ]);
    });
  });

  describe('new accounts', () => {
    it('mails a new local user a link that sets the first password', async () => {
      counter += 1;
      const email = `new.account.${counter}@example.test`;
      const since = smtp.mails.length;
      const created = await t.request({
        method: 'POST',
        url: '/api/users',
        token: await t.adminToken(),
        payload: { firstName: 'Nora', lastName: 'New', email },
      });
      expect(created.statusCode).toBe(200);
      const mail = await mailTo(email, since);
      expect(mail.envelopeTo).toEqual([email]);
      expect(mail.to).toContain(email);
      expect(mail.envelopeFrom).toBe(MAIL_FROM_ADDRESS);
      expect(mail.subject).toMatch(/account/i);
      expect(mail.text).toContain('Nora');
      const { token } = linkOf(mail);

      // No password yet: nothing signs in.
      expect(await loginStatus(email, 'first-password-1')).toBe(401);
      expect((await reset({ token, password: 'first-password-1' })).statusCode).toBe(204);
      expect(await loginStatus(email, 'first-password-1')).toBe(200);
      expectProblem(await reset({ token, password: 'first-password-2' }), 400, 'INVALID_RESET_TOKEN');
    });

    it('keeps the account link valid longer than a reset link (ACCOUNT_SETUP_TTL, 72 h by default)', async () => {
      counter += 1;
      const email = `slow.account.${counter}@example.test`;
      const since = smtp.mails.length;
      await t.createUser({ email, firstName: 'Sam', lastName: 'Slow' });
      const { token } = linkOf(await mailTo(email, since));
      t.clock.advance(2 * HOUR);
      try {
        expect((await reset({ token, password: 'slow-password-1' })).statusCode).toBe(204);
      } finally {
        t.clock.advance(-2 * HOUR);
      }
      expect(await loginStatus(email, 'slow-password-1')).toBe(200);

      counter += 1;
      const later = `late.account.${counter}@example.test`;
      const laterSince = smtp.mails.length;
      await t.createUser({ email: later, firstName: 'Lee', lastName: 'Late' });
      const expired = linkOf(await mailTo(later, laterSince));
      t.clock.advance(72 * HOUR + 1000);
      try {
        expectProblem(await reset({ token: expired.token, password: 'late-password-1' }), 400, 'INVALID_RESET_TOKEN');
      } finally {
        t.clock.advance(-(72 * HOUR + 1000));
      }
    });

    it('mails nothing when a directory (ldap) user or a disabled user is created', async () => {
      const since = smtp.mails.length;
      const ldapUser = await t.createUser({ email: `ldap.new.${++counter}@example.test`, ldap: true });
      const disabled = await t.createUser({ email: `disabled.new.${++counter}@example.test`, enabled: false });
      // A new account without a password: its "set your password" mail goes out.
      const sentinel = await t.createUser({ email: `sentinel.${++counter}@example.test` });
      await drainOutbox(t.app);
      expect(smtp.mails.slice(since).map((mail) => mail.envelopeTo)).toEqual([[sentinel.email]]);
      expect([ldapUser.ldap, disabled.enabled]).toEqual([true, false]);
    });
  });
});

describe('reset mails with the default cooldown (PASSWORD_MAIL_COOLDOWN 5 min)', () => {
  let smtp: TestSmtp;
  let database: TestDatabase;
  let other: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.envelopeTo.includes(email));
  /** Waits until both services have sent every mail they were sending (the test SMTP server holds each mail it acknowledged). */
  const settled = () => Promise.all([drainOutbox(a.app), drainOutbox(b.app)]);
  /** Waits for the first mail to `email`, then until no further one is being sent. */
  async function settledMailsTo(email: string): Promise<ReceivedMail[]> {
    await smtp.waitForMail((mail) => mail.envelopeTo.includes(email), 10_000);
    await settled();
    return mailsTo(email);
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    database = await createTestDatabase();
    // Two services on one database, each with its own pool, as two server processes.
    other = { handle: await openDatabase({ kind: 'postgres', url: database.url, poolSize: 10 }), url: database.url, dispose: async () => {} };
    const env = { SMTP_URL: smtp.url, OUTBOX_INTERVAL: '1s', PUBLIC_URL, LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' };
    a = await createTestApp({ database, env });
    b = await createTestApp({ database: other, env, clock: a.clock });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await other?.handle.close();
    await database?.dispose();
    await smtp?.stop();
  });

  it('mails one link for 20 concurrent requests over two processes, answering each the same 200', async () => {
    const email = 'flooded@example.test';
    // Created with a password by the admin: its "account ready" mail is not a reset mail and does not count.
    await a.createUser({ email, password: 'flooded-pw-1' });
    await settled();
    const before = mailsTo(email).length;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => forgotOn(i % 2 === 0 ? a : b, i % 3 === 0 ? email.toUpperCase() : email)));
    const unknown = await forgotOn(a, 'not.flooded@example.test');
    for (const response of answers) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(unknown.body);
    }
    await smtp.waitForMail(() => mailsTo(email).length > before, 10_000);
    await settled();
    const resets = mailsTo(email).slice(before);
    expect(resets.map((mail) => mail.subject)).toEqual([expect.stringMatching(/reset/i)]);

    // The mailed link is the live one: the other 19 requests did not replace it.
    const { token } = linkOf(resets[0]!);
    expect((await resetOn(b, { token, password: 'from-the-one-mail-1' })).statusCode).toBe(204);
  });

  it('mails again only after the cooldown; a request within it keeps the mailed link working', async () => {
    const email = 'patient@example.test';
    await a.createUser({ email, password: 'patient-pw-1' });
    await settled();
    const since = mailsTo(email).length;
    expect((await forgotOn(a, email)).statusCode).toBe(200);
    const first = linkOf((await settledMailsTo(email)).slice(since)[0]!);
    expect(mailsTo(email).length).toBe(since + 1);

    a.clock.advance(4 * 60_000);
    expect((await forgotOn(b, email)).statusCode).toBe(200);
    await settled();
    expect(mailsTo(email).length).toBe(since + 1);

    a.clock.advance(60_000 + 1000);
    expect((await forgotOn(a, email)).statusCode).toBe(200);
    await smtp.waitForMail(() => mailsTo(email).length > since + 1, 10_000);
    const second = linkOf(mailsTo(email)[since + 1]!);
    // A newer link replaces the older one, as always.
    expectProblem(await resetOn(a, { token: first.token, password: 'first-link-pw-1' }), 400, 'INVALID_RESET_TOKEN');
    expect((await resetOn(a, { token: second.token, password: 'second-link-pw-1' })).statusCode).toBe(204);
  });
});

describe('password reset with other settings', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  const base = 'https://desk.example.test/deskbook';

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      env: { SMTP_URL: smtp.url, OUTBOX_INTERVAL: '1s', PUBLIC_URL: `${base}/`, PASSWORD_RESET_TTL: '30m', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '3' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('limits forgot per client address: the 4th request within the window answers 429 with Retry-After', async () => {
    const address = '203.0.113.7';
    const bodies = [];
    for (const email of ['a@example.test', 'b@example.test', 'c@example.test']) {
      const response = await forgotOn(t, email, address);
      expect(response.statusCode).toBe(200);
      bodies.push(response.body);
    }
    const over = await forgotOn(t, 'd@example.test', address);
    expectProblem(over, 429, 'TOO_MANY_REQUESTS');
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Another address is not affected; after the window the first one may ask again.
    expect((await forgotOn(t, 'd@example.test', '203.0.113.8')).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await forgotOn(t, 'd@example.test', address)).statusCode).toBe(200);
  });

  it('limits reset per client address too: the 4th attempt answers 429 before any password is hashed', async () => {
    const address = '203.0.113.50';
    for (let attempt = 0; attempt < 3; attempt++) {
      expectProblem(await resetOn(t, { token: `guess-${attempt}`, password: 'guessed-pw-1' }, address), 400, 'INVALID_RESET_TOKEN');
    }
    const over = await resetOn(t, { token: 'guess-3', password: 'guessed-pw-1' }, address);
    expectProblem(over, 429, 'TOO_MANY_REQUESTS');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expectProblem(await resetOn(t, { token: 'guess-4', password: 'guessed-pw-1' }, '203.0.113.51'), 400, 'INVALID_RESET_TOKEN');
  });

  it('builds the link from a PUBLIC_URL with a path and a trailing slash, valid for PASSWORD_RESET_TTL', async () => {
    const since = smtp.mails.length;
    const user = await t.createUser({ email: 'other.settings@example.test', password: 'old-password-1' });
    // Its account mail, if it went out before the password was set, is not the one read below.
    await drainOutbox(t.app);
    const asked = Math.max(since, smtp.mails.length);
    expect((await forgotOn(t, user.email, '198.51.100.20')).statusCode).toBe(200);
    const mail = await smtp.waitForMail((candidate) => candidate.seq >= asked && candidate.envelopeTo.includes(user.email), 10_000);
    const { link, token } = linkOf(mail, base);
    expect(link).toBe(`${base}/reset-password?token=${token}`);
    expect(mail.envelopeFrom).toBe('deskbook@localhost');
    t.clock.advance(31 * 60_000);
    try {
      expectProblem(await resetOn(t, { token, password: 'too-late-pw-1' }, '198.51.100.20'), 400, 'INVALID_RESET_TOKEN');
    } finally {
      t.clock.advance(-31 * 60_000);
    }
    expect((await resetOn(t, { token, password: 'in-time-pw-1' }, '198.51.100.20')).statusCode).toBe(204);
  });
});

describe('password reset without SMTP_URL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
  });
  afterAll(() => t?.close());

  it('still answers forgot with the same 200 and keeps serving', async () => {
    const user = await t.createUser({ email: 'no.smtp@example.test', password: 'old-password-1' });
    const known = await forgotOn(t, user.email);
    const unknown = await forgotOn(t, 'nobody@example.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: expect.any(String) });
    expect(unknown.body).toBe(known.body);
    await drainOutbox(t.app);
    expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(await loginStatusOn(t, user.email, 'old-password-1')).toBe(200);
    expectProblem(await resetOn(t, { token: randomBytes(32).toString('base64url'), password: 'garbage-pw-1' }), 400, 'INVALID_RESET_TOKEN');
    expectProblem(await resetOn(t, { token: 'garbage', password: 'garbage-pw-1' }), 400, 'INVALID_RESET_TOKEN');
  });
});

describe('password mails through the outbox (docs/architecture.md#the-outbox)', () => {
  let smtp: TestSmtp;
  let database: TestDatabase;

  beforeAll(async () => {
    smtp = await startSmtp();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
    await smtp?.stop();
  });

  it('a reset mail asked for just before the process stopped is sent by the next one, with a link minted then', async () => {
    // The first process sends nothing (OUTBOX_INTERVAL 0): it stops between the request and the sending.
    const env = { SMTP_URL: smtp.url, PUBLIC_URL, LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' };
    const first = await createTestApp({ database, env });
    const user = await first.createUser({ email: 'survivor@example.test', password: 'survivor-pw-1' });
    await drainOutbox(first.app);
    const since = smtp.mails.length;
    expect((await forgotOn(first, user.email)).statusCode).toBe(200);
    await first.app.close();

    // The row is there, and holds no token: no link exists yet.
    const db = database.handle.db;
    const rows = await db.select().from(outbox).where(eq(outbox.kind, 'password.link'));
    const queued = rows.filter((row) => row.status === 'pending');
    expect(queued).toHaveLength(1);
    expect(queued[0]!.payload).toEqual({ purpose: 'reset', email: user.email });
    expect(await db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).toEqual([]);
    expect(smtp.mails.length).toBe(since);

    const second = await createTestApp({ database, env });
    try {
      expect(await drainOutbox(second.app)).toBe(1);
      const mail = await smtp.waitForMail((candidate) => candidate.seq >= since && candidate.envelopeTo.includes(user.email));
      const { token } = linkOf(mail);
      expect((await resetOn(second, { token, password: 'after-restart-pw-1' })).statusCode).toBe(204);
      const [sent] = await db.select().from(outbox).where(eq(outbox.id, queued[0]!.id));
      expect(sent).toMatchObject({ status: 'sent', attempts: 1 });
      expect(JSON.stringify(sent)).not.toContain(token);
    } finally {
      await second.app.close();
    }
  });
});
