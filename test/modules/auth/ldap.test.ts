import { createServer, type Server, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../src/db/schema.js';
import { hashPassword } from '../../../src/identity/password-hashing.js';
import { LdapDirectory, escapeDnValue, escapeFilterValue } from '../../../src/modules/auth/ldap.js';
import { UUID, createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { PEOPLE, ROOT_DN, ROOT_PASSWORD, freePort, startSlapd, type DirectoryPerson, type Slapd } from '../../helpers/slapd.js';

/**
 * Directory (LDAP) sign-in against a real, throwaway OpenLDAP (test/helpers/slapd.ts):
 * docs/behaviour.md#password-links-and-directory-sign-in and docs/behaviour.md#errors (503 when the directory does not answer).
 */

// The throttle must not get in the way of the many failed attempts below.
const QUIET = { LOGIN_MAX_FAILURES_PER_ACCOUNT: '10000', LOGIN_DELAY_AFTER_FAILURES: '10000', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000', LDAP_TIMEOUT: '2s' };
const searchEnv = (slapd: Slapd, extra: Record<string, string> = {}) => ({
  ...QUIET,
  LDAP_URL: slapd.url,
  LDAP_BIND_DN: ROOT_DN,
  LDAP_BIND_PASSWORD: ROOT_PASSWORD,
  LDAP_USER_BASE: PEOPLE,
  ...extra,
});
const TEMPLATE = `uid={username},${PEOPLE}`;

const person = (uid: string, givenName: string, sn: string, mail = `${uid}@example.test`): DirectoryPerson & { mail: string } => ({
  uid,
  mail,
  givenName,
  sn,
  password: `${uid}-directory-secret`,
});

const postLogin = (t: TestApp, email: string, password: string) => t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

/** Signs in, expects 200, and answers the caller's own User as GET /api/self shows it. */
async function signInAndSelf(t: TestApp, email: string, password: string) {
  const response = await postLogin(t, email, password);
  expect(response.statusCode, response.body).toBe(200);
  const pair = response.json<{ accessToken: string; userId: string; sessionId: string }>();
  const self = await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken });
  expect(self.statusCode, self.body).toBe(200);
  return { pair, self: self.json<Record<string, unknown>>() };
}

async function expectRefused(t: TestApp, email: string, password: string) {
  const response = await postLogin(t, email, password);
  return expectProblem(response, 401, 'INVALID_CREDENTIALS');
}

async function expectDirectoryDown(t: TestApp, email: string, password: string) {
  const response = await postLogin(t, email, password);
  return expectProblem(response, 503, 'SERVICE_UNAVAILABLE');
}

/** All users the admin can see (the harness creates the first admin). */
async function allUsers(t: TestApp): Promise<{ id: string; email: string; ldap?: boolean }[]> {
  const response = await t.request({ method: 'GET', url: '/api/users', token: await t.adminToken(), query: { size: '1000' } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().content;
}

const INJECTIONS = ['*', '*)(uid=*))(|(uid=*', '*)(mail=*', 'ann*', ')(objectClass=*', '*@example.test', '(|(mail=*))', 'ann@example.test)(|(mail=*'];

describe('escapeFilterValue (RFC 4515)', () => {
  it('escapes *, (, ), \\ and NUL as \\XX hex pairs', () => {
    expect(escapeFilterValue('*')).toBe('\\2a');
    expect(escapeFilterValue('(')).toBe('\\28');
    expect(escapeFilterValue(')')).toBe('\\29');
    expect(escapeFilterValue('\\')).toBe('\\5c');
    expect(escapeFilterValue('\u0000')).toBe('\\00');
    expect(escapeFilterValue('a\u0000*()\\b')).toBe('a\\00\\2a\\28\\29\\5cb');
  });

  it('turns injection attempts into literal values', () => {
    expect(escapeFilterValue('*)(uid=*))(|(uid=*')).toBe('\\2a\\29\\28uid=\\2a\\29\\29\\28|\\28uid=\\2a');
    expect(escapeFilterValue('*)(mail=*')).toBe('\\2a\\29\\28mail=\\2a');
    expect(escapeFilterValue('ann*')).toBe('ann\\2a');
    expect(escapeFilterValue(')(objectClass=*')).toBe('\\29\\28objectClass=\\2a');
    // An already escaped-looking value is escaped again, not trusted.
    expect(escapeFilterValue('a\\2a')).toBe('a\\5c2a');
    for (const value of INJECTIONS) expect(escapeFilterValue(value)).not.toMatch(/[*()]|\\(?![0-9a-f]{2})/);
  });

  it('leaves ordinary e-mail characters and non-ASCII text alone', () => {
    expect(escapeFilterValue('Ann.Lee+desk@example.test')).toBe('Ann.Lee+desk@example.test');
    expect(escapeFilterValue("o'brien=x,y;z#é")).toBe("o'brien=x,y;z#é");
    expect(escapeFilterValue('')).toBe('');
  });
});

describe('escapeDnValue (RFC 4514)', () => {
  it('escapes , + " \\ < > ; = with a backslash', () => {
    expect(escapeDnValue('a,uid=x')).toBe('a\\,uid\\=x');
    expect(escapeDnValue('a+cn=b')).toBe('a\\+cn\\=b');
    expect(escapeDnValue('say "hi"')).toBe('say \\"hi\\"');
    expect(escapeDnValue('back\\slash')).toBe('back\\\\slash');
    expect(escapeDnValue('<tag>;')).toBe('\\<tag\\>\\;');
  });

  it('escapes NUL as \\00', () => {
    expect(escapeDnValue('a\u0000b')).toBe('a\\00b');
    expect(escapeDnValue('\u0000')).toBe('\\00');
  });

  it('escapes a leading space or #, and a trailing space, but not those inside', () => {
    expect(escapeDnValue('#admin')).toBe('\\#admin');
    expect(escapeDnValue(' admin')).toBe('\\ admin');
    expect(escapeDnValue('admin ')).toBe('admin\\ ');
    expect(escapeDnValue(' a ')).toBe('\\ a\\ ');
    expect(escapeDnValue('a#b c')).toBe('a#b c');
    expect(escapeDnValue('ann.lee')).toBe('ann.lee');
  });

  it('escapes a value that is a single space exactly once', () => {
    // The space is both leading and trailing: RFC 4514 wants "\ ", not "\\ " (an escaped backslash and a bare space).
    expect(escapeDnValue(' ')).toBe('\\ ');
  });
});

describe('LDAP search-then-bind', () => {
  const ann = person('ann', 'Ann', 'Lee', 'ann.lee@example.test');
  const bob = person('bob', 'Bob', 'Stone');
  const fred = person('fred', 'Fred', 'Fox');
  const hana = person('hana', 'Hana', 'Kim');
  const dora = person('dora', 'Dora', 'Day');
  const erin = person('erin', 'Erin', 'Ek');
  const gus = person('gus', 'Gus', 'Grey');
  // Two entries with one mail: the search is ambiguous, so nobody signs in.
  const twin1 = { ...person('twin1', 'Tom', 'Twin', 'twin@example.test'), password: 'twin-shared-secret' };
  const twin2 = { ...person('twin2', 'Tim', 'Twin', 'twin@example.test'), password: 'twin-other-secret' };
  let slapd: Slapd;
  let t: TestApp;

  beforeAll(async () => {
    slapd = await startSlapd([ann, bob, fred, hana, dora, erin, gus, twin1, twin2]);
    t = await createTestApp({ env: searchEnv(slapd) });
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('signs a directory user in with the directory password; the e-mail is matched regardless of case', async () => {
    const created = await t.createUser({ email: 'Ann.Lee@Example.TEST', firstName: 'Ann', lastName: 'Lee', ldap: true });
    expect(created.ldap).toBe(true);
    for (const email of ['ann.lee@example.test', 'ANN.LEE@EXAMPLE.TEST', 'Ann.Lee@Example.TEST']) {
      const { pair, self } = await signInAndSelf(t, email, ann.password);
      expect(pair.userId).toBe(created.id);
      expect(self).toMatchObject({ id: created.id, email: 'Ann.Lee@Example.TEST', ldap: true, enabled: true, role: 'USER' });
    }
  });

  it('refuses a wrong directory password with the same 401 as an unknown e-mail', async () => {
    const user = await t.createUser({ email: bob.mail, ldap: true });
    const wrong = await expectRefused(t, bob.mail, 'not-the-directory-password');
    // Another person's directory password is wrong too.
    await expectRefused(t, bob.mail, ann.password);
    const unknown = await expectRefused(t, 'nobody-here@example.test', bob.password);
    expect({ title: wrong.title, detail: wrong.detail, type: wrong.type }).toEqual({ title: unknown.title, detail: unknown.detail, type: unknown.type });
    // The right one works (so the refusals above were about the password).
    expect((await signInAndSelf(t, bob.mail, bob.password)).pair.userId).toBe(user.id);
  });

  it('never accepts a local password for an ldap user, even one set before ldap was switched on', async () => {
    const localPassword = 'fred-local-password';
    const user = await t.createUser({ email: fred.mail, password: localPassword });
    await signInAndSelf(t, fred.mail, localPassword); // a local user for now
    const switched = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: await t.adminToken(), payload: { ldap: true } });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().ldap).toBe(true);

    await expectRefused(t, fred.mail, localPassword);
    for (const anything of ['fred-directory-secreT', 'password', 'x'.repeat(256)]) await expectRefused(t, fred.mail, anything);
    const { self } = await signInAndSelf(t, fred.mail, fred.password);
    expect(self).toMatchObject({ id: user.id, ldap: true });

    // Even a local hash left in the row (an import, an old migration) is never consulted for an ldap user.
    await t.database.handle.db
      .update(users)
      .set({ passwordHash: await hashPassword(localPassword) })
      .where(eq(users.id, user.id));
    await expectRefused(t, fred.mail, localPassword);
    await signInAndSelf(t, fred.mail, fred.password);
  });

  it('signs a non-ldap local user in with the local password, without consulting the directory', async () => {
    // Same mail as a directory person, but a local account: only the local password counts.
    const localPassword = 'hana-local-password';
    const user = await t.createUser({ email: hana.mail, password: localPassword });
    expect((await signInAndSelf(t, 'HANA@example.test', localPassword)).self).toMatchObject({ id: user.id, ldap: false });
    await expectRefused(t, hana.mail, hana.password);
  });

  it('lets nobody in when the e-mail matches two directory entries', async () => {
    await t.createUser({ email: twin1.mail, ldap: true });
    await expectRefused(t, twin1.mail, twin1.password);
    await expectRefused(t, twin1.mail, twin2.password);
  });

  it('refuses a disabled ldap user even with the right directory password', async () => {
    const user = await t.createUser({ email: dora.mail, ldap: true, enabled: false });
    await expectRefused(t, dora.mail, dora.password);
    const enabled = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: await t.adminToken(), payload: { enabled: true } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    await signInAndSelf(t, dora.mail, dora.password);
    const disabled = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: await t.adminToken(), payload: { enabled: false } });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await expectRefused(t, dora.mail, dora.password);
  });

  it("answers 409 DIRECTORY_USER when an ldap user or an admin tries to set an ldap user's password", async () => {
    const user = await t.createUser({ email: erin.mail, ldap: true });
    const { pair } = await signInAndSelf(t, erin.mail, erin.password);
    const own = await t.request({
      method: 'PUT',
      url: '/api/self/password',
      token: pair.accessToken,
      payload: { currentPassword: erin.password, newPassword: 'erin-new-local-1' },
    });
    expectProblem(own, 409, 'DIRECTORY_USER');
    const byAdmin = await t.request({
      method: 'PUT',
      url: `/api/users/${user.id}/password`,
      token: await t.adminToken(),
      payload: { password: 'erin-new-local-2' },
    });
    expectProblem(byAdmin, 409, 'DIRECTORY_USER');
    // Nothing changed: the directory password still works, the attempted ones never do.
    await expectRefused(t, erin.mail, 'erin-new-local-1');
    await expectRefused(t, erin.mail, 'erin-new-local-2');
    await signInAndSelf(t, erin.mail, erin.password);
    // The session survived the refused changes.
    expect((await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).statusCode).toBe(200);
  });

  it('does not create a user for a directory person without a local account when LDAP_AUTO_CREATE is unset', async () => {
    expect(t.config.LDAP_AUTO_CREATE).toBe(false);
    const before = await allUsers(t);
    await expectRefused(t, gus.mail, gus.password);
    const after = await allUsers(t);
    expect(after).toHaveLength(before.length);
    expect(after.some((user) => user.email.toLowerCase() === gus.mail)).toBe(false);
  });

  it('refuses an empty password with 400 before the directory is asked', async () => {
    const response = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: ann.mail, password: '' } });
    const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(problem.errors?.map((error) => error.field)).toContain('password');
  });

  it('LdapDirectory never binds with an empty password, not even for an existing entry', async () => {
    const directory = new LdapDirectory(t.config, t.app.log);
    await expect(directory.verify(ann.mail, '')).resolves.toEqual({ verdict: 'rejected' });
    await expect(directory.verify(bob.mail, '')).resolves.toEqual({ verdict: 'rejected' });
    // Control: the same directory object accepts the real password and reads the profile.
    await expect(directory.verify(ann.mail, ann.password)).resolves.toEqual({
      verdict: 'accepted',
      profile: { mails: [ann.mail], firstName: 'Ann', lastName: 'Lee' },
    });
    await expect(directory.verify('ANN.LEE@example.test', ann.password)).resolves.toMatchObject({ verdict: 'accepted' });
    await expect(directory.verify(ann.mail, 'wrong-password')).resolves.toEqual({ verdict: 'rejected' });
    await expect(directory.verify('nobody@example.test', ann.password)).resolves.toEqual({ verdict: 'rejected' });

    const template = new LdapDirectory({ ...t.config, LDAP_USER_BASE: undefined, LDAP_USER_DN_TEMPLATE: TEMPLATE }, t.app.log);
    await expect(template.verify('ann@example.test', '')).resolves.toEqual({ verdict: 'rejected' });
    await expect(template.verify('ann@example.test', ann.password)).resolves.toMatchObject({ verdict: 'accepted' });
  });
});

describe('LDAP filter injection', () => {
  // One person only: an unescaped wildcard would match exactly this entry and bind as it.
  const ann = person('ann', 'Ann', 'Lee', 'ann@example.test');
  let slapd: Slapd;
  let t: TestApp; // auto-create on: every login name reaches the directory
  let plain: TestApp; // auto-create off

  beforeAll(async () => {
    slapd = await startSlapd([ann]);
    t = await createTestApp({ env: searchEnv(slapd, { LDAP_AUTO_CREATE: 'true' }) });
    plain = await createTestApp({ env: searchEnv(slapd) });
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
    await slapd?.stop();
  });

  it('finds nobody for wildcard and filter-breaking login names, and creates nobody', async () => {
    const before = await allUsers(t);
    for (const email of INJECTIONS) {
      for (const password of [ann.password, 'any-password-at-all']) await expectRefused(t, email, password);
    }
    expect(await allUsers(t)).toEqual(before);
    // Control: the real mail does sign in (and is created), so the refusals were not for another reason.
    const { self } = await signInAndSelf(t, ann.mail, ann.password);
    expect(self).toMatchObject({ email: ann.mail, ldap: true });
    expect(await allUsers(t)).toHaveLength(before.length + 1);
  });

  it('treats a local ldap user whose e-mail contains * literally', async () => {
    // Valid addresses with a wildcard in them: unescaped, (mail=*@example.test) would find ann.
    for (const email of ['*@example.test', 'ann*@example.test', 'a*n@example.test']) {
      const user = await plain.createUser({ email, ldap: true });
      expect(user.email).toBe(email);
      await expectRefused(plain, email, ann.password);
      await expectRefused(plain, email, 'any-password-at-all');
    }
  });
});

describe('LDAP with two people a wildcard would match', () => {
  const shared = 'the-same-secret-for-both';
  const ann = { ...person('ann', 'Ann', 'Lee'), password: shared };
  const bob = { ...person('bob', 'Bob', 'Stone'), password: shared };
  let slapd: Slapd;
  let t: TestApp;

  beforeAll(async () => {
    slapd = await startSlapd([ann, bob]);
    t = await createTestApp({ env: searchEnv(slapd, { LDAP_AUTO_CREATE: 'true' }) });
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('lets no one in through a name that would match both entries', async () => {
    const before = await allUsers(t);
    for (const email of ['*', '*@example.test', '*)(mail=*', '*)(uid=*))(|(uid=*', '*b*']) {
      await expectRefused(t, email, shared);
    }
    expect(await allUsers(t)).toEqual(before);
    // Each of them signs in by their own mail.
    const first = await signInAndSelf(t, ann.mail, shared);
    const second = await signInAndSelf(t, bob.mail, shared);
    expect(first.self.email).toBe(ann.mail);
    expect(second.self.email).toBe(bob.mail);
    expect(first.pair.userId).not.toBe(second.pair.userId);
  });
});

describe('LDAP that does not answer or refuses the search account', () => {
  const ann = person('ann', 'Ann', 'Lee');
  const local = { email: 'local.user@example.test', password: 'local-user-password' };
  let slapd: Slapd;
  let silent: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    slapd = await startSlapd([ann]);
    // Accepts connections, never says a word.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('data', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
    await slapd?.stop();
  });

  /** An app whose directory is at `url`, with an ldap user for ann and a local user. */
  async function appFor(env: Record<string, string>) {
    const t = await createTestApp({ env: { ...QUIET, LDAP_TIMEOUT: '1s', LDAP_USER_BASE: PEOPLE, ...env } });
    await t.createUser({ email: ann.mail, ldap: true });
    await t.createUser({ email: local.email, password: local.password });
    return t;
  }

  it('answers 503 when nobody listens at LDAP_URL; local users still sign in', async () => {
    const t = await appFor({ LDAP_URL: `ldap://127.0.0.1:${await freePort()}`, LDAP_BIND_DN: ROOT_DN, LDAP_BIND_PASSWORD: ROOT_PASSWORD });
    try {
      await expectDirectoryDown(t, ann.mail, ann.password);
      await expectDirectoryDown(t, ann.mail, 'a-wrong-password');
      expect((await signInAndSelf(t, local.email, local.password)).self).toMatchObject({ ldap: false });
      await expectRefused(t, 'unknown@example.test', ann.password); // no auto-create: directory not asked
    } finally {
      await t.close();
    }
  });

  it('answers 503 (not 200, not 500) when the directory does not answer within LDAP_TIMEOUT', async () => {
    const port = (silent.address() as { port: number }).port;
    const envs: Record<string, string>[] = [
      { LDAP_URL: `ldap://127.0.0.1:${port}`, LDAP_BIND_DN: ROOT_DN, LDAP_BIND_PASSWORD: ROOT_PASSWORD, LDAP_AUTO_CREATE: 'true' },
      { LDAP_URL: `ldap://127.0.0.1:${port}`, LDAP_USER_DN_TEMPLATE: TEMPLATE, LDAP_AUTO_CREATE: 'true' },
    ];
    for (const env of envs) {
      const t = await appFor(env);
      try {
        const started = Date.now();
        await expectDirectoryDown(t, ann.mail, ann.password);
        expect(Date.now() - started).toBeLessThan(10_000);
        await expectDirectoryDown(t, 'someone.new@example.test', 'any-password');
        expect(await allUsers(t)).toHaveLength(3); // admin, ann, local: nobody created
      } finally {
        await t.close();
      }
    }
  });

  it("answers 503 when the search account's password is wrong (broken configuration, not a wrong user password)", async () => {
    const t = await appFor({ LDAP_URL: slapd.url, LDAP_BIND_DN: ROOT_DN, LDAP_BIND_PASSWORD: 'not-the-root-password' });
    try {
      await expectDirectoryDown(t, ann.mail, ann.password);
      await expectDirectoryDown(t, ann.mail, 'a-wrong-password');
    } finally {
      await t.close();
    }
    // Control: with the right search account the same sign-in works.
    const fixed = await appFor({ LDAP_URL: slapd.url, LDAP_BIND_DN: ROOT_DN, LDAP_BIND_PASSWORD: ROOT_PASSWORD });
    try {
      await signInAndSelf(fixed, ann.mail, ann.password);
    } finally {
      await fixed.close();
    }
  });

  it('answers 503 once the directory has stopped', async () => {
    const t = await appFor({ LDAP_URL: slapd.url, LDAP_BIND_DN: ROOT_DN, LDAP_BIND_PASSWORD: ROOT_PASSWORD });
    try {
      const { pair } = await signInAndSelf(t, ann.mail, ann.password);
      await slapd.stop();
      await expectDirectoryDown(t, ann.mail, ann.password);
      await expectDirectoryDown(t, ann.mail, 'a-wrong-password');
      // An existing session does not depend on the directory; local users still sign in.
      expect((await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).statusCode).toBe(200);
      await signInAndSelf(t, local.email, local.password);
    } finally {
      await t.close();
    }
  });
});

describe('LDAP DN template (LDAP_USER_DN_TEMPLATE)', () => {
  const ann = person('ann', 'Ann', 'Lee');
  const x = person('x', 'Xavier', 'Ex');
  // An entry below uid=x: an unescaped username "a,uid=x" would bind to it.
  const NESTED_DN = `uid=a,uid=x,${PEOPLE}`;
  const NESTED_PASSWORD = 'nested-entry-secret';
  let slapd: Slapd;
  let t: TestApp;
  let auto: TestApp;

  beforeAll(async () => {
    slapd = await startSlapd([ann, x]);
    const root = new Client({ url: slapd.url });
    try {
      await root.bind(ROOT_DN, ROOT_PASSWORD);
      await root.add(NESTED_DN, {
        objectClass: ['inetOrgPerson'],
        uid: 'a',
        cn: 'Nested A',
        givenName: 'Nested',
        sn: 'A',
        mail: 'nested@example.test',
        userPassword: NESTED_PASSWORD,
      });
    } finally {
      await root.unbind();
    }
    const env = { ...QUIET, LDAP_URL: slapd.url, LDAP_USER_DN_TEMPLATE: TEMPLATE };
    t = await createTestApp({ env });
    auto = await createTestApp({ env: { ...env, LDAP_AUTO_CREATE: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await auto?.close();
    await slapd?.stop();
  });

  it('the nested entry exists and accepts its password (control for the escaping test)', async () => {
    const client = new Client({ url: slapd.url });
    try {
      await client.bind(NESTED_DN, NESTED_PASSWORD);
    } finally {
      await client.unbind();
    }
  });

  it('signs in with the directory password by binding to the templated DN', async () => {
    const user = await t.createUser({ email: ann.mail, ldap: true });
    const { self } = await signInAndSelf(t, 'ANN@example.test', ann.password);
    expect(self).toMatchObject({ id: user.id, ldap: true });
    await expectRefused(t, ann.mail, 'a-wrong-password');
    await expectRefused(t, ann.mail, x.password);
  });

  it('does not let DN special characters in the username escape the template', async () => {
    const before = await allUsers(auto);
    for (const email of ['a,uid=x@example.test', 'a,uid=x', 'a+uid=x@example.test', 'uid=a,uid=x@example.test']) {
      await expectRefused(auto, email, NESTED_PASSWORD);
    }
    expect(await allUsers(auto)).toEqual(before);
    // Same with a local ldap user whose username has a special character in it.
    await t.createUser({ email: 'x+a@example.test', ldap: true });
    await expectRefused(t, 'x+a@example.test', x.password);
  });

  it('answers 401, not 503, for a username the directory cannot even parse as a DN', async () => {
    // "@example.test" has an empty username ("uid=,ou=people,…"): a malformed name is a refusal, not an outage.
    for (const email of ['@example.test', '@']) {
      await expectRefused(auto, email, ann.password);
    }
    // NUL never reaches the directory at all.
    expectProblem(await postLogin(auto, 'a\u0000b@example.test', ann.password), 400, 'VALIDATION_FAILED');
  });

  it('auto-creates from the entry itself in template mode', async () => {
    const { self } = await signInAndSelf(auto, x.mail, x.password);
    expect(self).toMatchObject({ email: x.mail, firstName: 'Xavier', lastName: 'Ex', ldap: true, enabled: true, role: 'USER' });
  });
});

describe('LDAP_AUTO_CREATE', () => {
  const ann = person('ann', 'Ann', 'Lee', 'ann.lee@example.test');
  const gus = person('gus', 'Gus', 'Grey');
  const ivy = person('ivy', 'Ivy', 'Ivers');
  let slapd: Slapd;
  let t: TestApp;

  beforeAll(async () => {
    slapd = await startSlapd([ann, gus, ivy]);
    t = await createTestApp({ env: searchEnv(slapd, { LDAP_AUTO_CREATE: 'true' }) });
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('creates the local USER at the first directory sign-in and reuses it afterwards', async () => {
    const before = await allUsers(t);
    expect(before.some((user) => user.email === ann.mail)).toBe(false);

    const first = await signInAndSelf(t, 'ANN.LEE@Example.test', ann.password);
    expect(first.self).toMatchObject({ email: ann.mail, firstName: 'Ann', lastName: 'Lee', role: 'USER', enabled: true, ldap: true, hasAvatar: false });
    expect(first.self.id).toMatch(UUID);
    expect(first.pair.userId).toBe(first.self.id);

    const second = await signInAndSelf(t, ann.mail, ann.password);
    expect(second.pair.userId).toBe(first.self.id);
    expect(second.pair.sessionId).not.toBe(first.pair.sessionId);

    const after = await allUsers(t);
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((user) => user.email === ann.mail)).toEqual([expect.objectContaining({ id: first.self.id, ldap: true })]);

    // The created user is a directory user: no local password for it.
    const set = await t.request({
      method: 'PUT',
      url: `/api/users/${first.self.id}/password`,
      token: await t.adminToken(),
      payload: { password: 'local-password-1' },
    });
    expectProblem(set, 409, 'DIRECTORY_USER');
  });

  it('creates nobody for a wrong directory password', async () => {
    const before = await allUsers(t);
    await expectRefused(t, gus.mail, 'not-gus-password');
    await expectRefused(t, 'nobody@example.test', gus.password);
    expect(await allUsers(t)).toEqual(before);
  });

  it('without LDAP_AUTO_CREATE the same sign-in is refused and creates nobody', async () => {
    const off = await createTestApp({ env: searchEnv(slapd) });
    try {
      const before = await allUsers(off);
      await expectRefused(off, gus.mail, gus.password);
      await expectRefused(off, ann.mail, ann.password);
      expect(await allUsers(off)).toEqual(before);
    } finally {
      await off.close();
    }
    // Control: the same credentials do sign in where auto-create is on.
    expect((await signInAndSelf(t, gus.mail, gus.password)).self).toMatchObject({ email: gus.mail, firstName: 'Gus', lastName: 'Grey', ldap: true });
  });

  it('never signs a directory bind into an existing local (non-ldap) account', async () => {
    // A filter that also finds people by uid (a common set-up): "ivy" finds the entry whose mail
    // is ivy@example.test, which here belongs to a local account with its own password.
    const byUid = await createTestApp({ env: searchEnv(slapd, { LDAP_AUTO_CREATE: 'true', LDAP_USER_FILTER: '(|(mail={email})(uid={email}))' }) });
    try {
      const localPassword = 'ivy-local-password';
      const local = await byUid.createUser({ email: ivy.mail, role: 'ADMIN', password: localPassword });
      await expectRefused(byUid, 'ivy', ivy.password);
      await expectRefused(byUid, ivy.mail, ivy.password);
      // The local account still works with its local password only.
      expect((await signInAndSelf(byUid, ivy.mail, localPassword)).self).toMatchObject({ id: local.id, ldap: false });
    } finally {
      await byUid.close();
    }
  });
});

describe('LDAP entries with several mail addresses', () => {
  // boss is a directory admin. mallory's entry lists boss's address first and her own second: a
  // directory that lets people edit their own mail attribute, or a shared alias, looks like this.
  const boss = person('boss', 'Bea', 'Boss');
  const mallory = { ...person('mallory', 'Mal', 'Lory'), mail: [boss.mail, 'mallory@example.test'] };
  const carl = { ...person('carl', 'Carl', 'Two'), mail: ['carl.primary@example.test', 'carl.alias@example.test'] };
  let slapd: Slapd;
  let t: TestApp;
  let bossId: string;

  beforeAll(async () => {
    slapd = await startSlapd([boss, mallory, carl]);
    t = await createTestApp({ env: searchEnv(slapd, { LDAP_AUTO_CREATE: 'true' }) });
    bossId = (await t.createUser({ email: boss.mail, firstName: 'Bea', lastName: 'Boss', role: 'ADMIN', ldap: true })).id;
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('signs an entry in only as the address typed, never as the account of its first mail value', async () => {
    const { pair, self } = await signInAndSelf(t, 'mallory@example.test', mallory.password);
    expect(pair.userId).not.toBe(bossId);
    expect(self).toMatchObject({ email: 'mallory@example.test', role: 'USER', ldap: true });
    // Again, now that the account exists: still her own.
    expect((await signInAndSelf(t, 'MALLORY@example.test', mallory.password)).pair.userId).toBe(pair.userId);
    // boss's address finds two entries: nobody signs in with it, not even with mallory's password.
    await expectRefused(t, boss.mail, mallory.password);
    const admins = (await allUsers(t)).filter((user) => user.email.toLowerCase() === boss.mail);
    expect(admins).toEqual([expect.objectContaining({ id: bossId })]);
  });

  it('links an entry by any of its mail values, each to its own account', async () => {
    const primary = await signInAndSelf(t, 'carl.primary@example.test', carl.password);
    const alias = await signInAndSelf(t, 'Carl.Alias@example.test', carl.password);
    expect(primary.self.email).toBe('carl.primary@example.test');
    expect(alias.self.email).toBe('carl.alias@example.test');
    expect(alias.pair.userId).not.toBe(primary.pair.userId);
  });

  it('refuses an entry found by a filter when the typed address is not one of its mail values', async () => {
    // A filter that also finds people by uid: "carl" finds carl's entry, whose mails do not include "carl".
    const byUid = await createTestApp({ env: searchEnv(slapd, { LDAP_AUTO_CREATE: 'true', LDAP_USER_FILTER: '(|(mail={email})(uid={email}))' }) });
    try {
      const before = await allUsers(byUid);
      await expectRefused(byUid, 'carl', carl.password);
      expect(await allUsers(byUid)).toEqual(before);
      expect((await signInAndSelf(byUid, 'carl.alias@example.test', carl.password)).self.email).toBe('carl.alias@example.test');
    } finally {
      await byUid.close();
    }
  });
});
