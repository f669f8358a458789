import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey } from '../../../src/identity/throttle.js';
import { ADMIN_EMAIL, createTestApp, drainOutbox, expectProblem, type TestApp } from '../../helpers/app.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * Sign-in limits that bound guessing without handing out lock-outs (docs/behaviour.md,
 * "Sign-in limits"): failures count per account and client address, an account that keeps
 * failing slows down the addresses that fail on it, and the owner from elsewhere still gets in.
 */

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.10';

const attempt = (t: TestApp, email: string, password: string, remoteAddress: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });

const retryAfterOf = (response: Awaited<ReturnType<typeof attempt>>) => {
  const problem = expectProblem(response, 429, 'TOO_MANY_REQUESTS');
  const header = Number(response.headers['retry-after']);
  expect(Number.isInteger(header) && header >= 1, `Retry-After ${response.headers['retry-after']}`).toBe(true);
  expect(problem.retryAfter ?? header).toBe(header);
  return header;
};

/** Guesses from `address` until `failures` wrong passwords were checked, waiting out every 429; answers the Retry-Afters seen. */
async function guess(t: TestApp, email: string, address: string, failures: number): Promise<number[]> {
  const waits: number[] = [];
  let checked = 0;
  for (let round = 0; checked < failures; round++) {
    expect(round, 'the attacker never got through').toBeLessThan(failures * 3);
    const response = await attempt(t, email, `wrong-guess-${round}`, address);
    if (response.statusCode === 401) {
      checked += 1;
      continue;
    }
    const wait = retryAfterOf(response);
    waits.push(wait);
    t.clock.advance(wait * 1000);
  }
  return waits;
}

describe('clientKey', () => {
  it('keeps IPv4 addresses, unwraps IPv4-mapped ones and cuts IPv6 addresses to their /64', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    for (const address of ['2001:db8:aa:1::1', '2001:0DB8:00aa:0001:ffff:1:2:3', '2001:db8:aa:1:0:0:0:9%eth0'])
      expect(clientKey(address)).toBe('2001:db8:aa:1::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1:2:3:4')).toBe('fe80:0:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientKey('2001:db8:aa:2::1')).not.toBe(clientKey('2001:db8:aa:1::1'));
    // Whatever else a proxy header may carry is kept as it is.
    expect(clientKey('not-an-address')).toBe('not-an-address');
  });
});

describe('sign-in limits with the default settings', () => {
  let t: TestApp;
  const PASSWORD = 'owner-password-1';
  // Made before any test moves the clock (an admin token lives 15 minutes).
  const victims: { id: string; email: string }[] = [];
  const victim = () => victims.shift()!.email;

  beforeAll(async () => {
    // Only the per-address limit is raised: one test address makes many attempts.
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    for (let i = 0; i < 6; i++) {
      const email = `victim.${i}@example.test`;
      victims.push({ id: (await t.createUser({ email, role: i < 2 ? 'ADMIN' : 'USER', password: PASSWORD })).id, email });
    }
  });
  afterAll(() => t?.close());

  it('lets the owner in from another address at once after 50 failures from an attacker address', async () => {
    const email = victim();
    const waits = await guess(t, email, ATTACKER, 50);
    expect(waits.length).toBeGreaterThan(0);
    // Right away, with no waiting: the owner from elsewhere gets in, the attacker's address does not even with the right password.
    const owner = await attempt(t, email, PASSWORD, OWNER);
    expect(owner.statusCode, owner.body).toBe(200);
    const blocked = await attempt(t, email, PASSWORD, ATTACKER);
    expect(retryAfterOf(blocked)).toBeGreaterThan(0);
    // A neighbour in the attacker's IPv6 /64 counts as the attacker; another /64 does not.
    const v6 = victim();
    await guess(t, v6, '2001:db8:aa:1::1', 10);
    retryAfterOf(await attempt(t, v6, PASSWORD, '2001:db8:aa:1::2'));
    expect((await attempt(t, v6, PASSWORD, '2001:db8:aa:2::1')).statusCode).toBe(200);
  });

  it('slows the attacker with growing Retry-After: 1, 2, 4, 8, 16 s, then that address waits out the window', async () => {
    const email = victim();
    // Five failures cost nothing but the failures.
    expect(await guess(t, email, ATTACKER, 5)).toEqual([]);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const early = await attempt(t, email, 'still-guessing', ATTACKER);
      const wait = retryAfterOf(early);
      waits.push(wait);
      // One second too early is still refused, without a password check.
      if (wait > 1) {
        t.clock.advance((wait - 1) * 1000);
        retryAfterOf(await attempt(t, email, 'still-guessing', ATTACKER));
        t.clock.advance(1000);
      } else {
        t.clock.advance(wait * 1000);
      }
      const response = await attempt(t, email, `guess-after-wait-${i}`, ATTACKER);
      if (response.statusCode === 429) {
        waits.push(retryAfterOf(response));
        break;
      }
      expect(response.statusCode).toBe(401);
    }
    expect(waits.slice(0, 5)).toEqual([1, 2, 4, 8, 16]);
    // The tenth failure from one address: that address waits until its 15-minute window ends.
    expect(waits[5]).toBeGreaterThan(60);
    expect(waits[5]).toBeLessThanOrEqual(15 * 60);
    expect((await attempt(t, email, PASSWORD, OWNER)).statusCode).toBe(200);
  });

  it("clears the pair at a successful sign-in: the owner's typos never add up to the window-long wait", async () => {
    const email = victim();
    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      waits.push(...(await guess(t, email, OWNER, 4)));
      let response = await attempt(t, email, PASSWORD, OWNER);
      if (response.statusCode === 429) {
        const wait = retryAfterOf(response);
        waits.push(wait);
        t.clock.advance(wait * 1000);
        response = await attempt(t, email, PASSWORD, OWNER);
      }
      expect(response.statusCode, response.body).toBe(200);
    }
    // 16 failures from one address within one window, yet only the short doubling waits, never the window.
    expect(Math.max(...waits)).toBeLessThanOrEqual(60);
  });

  it('refuses concurrent guesses past the delay: one password check per waiting time', async () => {
    const email = victim();
    await guess(t, email, ATTACKER, 5);
    const wait = retryAfterOf(await attempt(t, email, 'x-wrong-1', ATTACKER));
    t.clock.advance(wait * 1000);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(t, email, `concurrent-${i}`, ATTACKER)));
    const statuses = answers.map((response) => response.statusCode);
    expect(
      statuses.filter((status) => status === 401),
      statuses.join(', '),
    ).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('counts unknown addresses like real ones', async () => {
    const waits = await guess(t, 'nobody.here@example.test', ATTACKER, 7);
    expect(waits).toEqual([1, 2]);
  });

  it('an admin setting the password clears the account counters', async () => {
    const { id, email } = victims.shift()!;
    await guess(t, email, ATTACKER, 10);
    retryAfterOf(await attempt(t, email, 'blocked-now', ATTACKER));
    const admin = await t.login(ADMIN_EMAIL, 'admin-password-1');
    const set = await t.request({ method: 'PUT', url: `/api/users/${id}/password`, token: admin.accessToken, payload: { password: 'new-password-1' } });
    expect(set.statusCode).toBe(204);
    // Checked again at once (401, not 429), and the delays start from nothing.
    expect(await guess(t, email, ATTACKER, 4)).toEqual([]);
    expect((await attempt(t, email, 'new-password-1', ATTACKER)).statusCode).toBe(200);
  });
});

describe('sign-in limits and a password reset', () => {
  let smtp: TestSmtp;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, OUTBOX_INTERVAL: '1s', LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('a reset clears the account counters, for every address', async () => {
    const email = 'reset.victim@example.test';
    await t.createUser({ email, password: 'before-reset-1' });
    // The account mail of the new user goes out in the background: let it, so the mail read below is the reset link.
    await drainOutbox(t.app);
    await guess(t, email, ATTACKER, 10);
    await guess(t, email, OWNER, 1);
    retryAfterOf(await attempt(t, email, 'before-reset-1', ATTACKER));
    retryAfterOf(await attempt(t, email, 'before-reset-1', OWNER));

    const since = smtp.mails.length;
    expect((await t.request({ method: 'POST', url: '/api/password/forgot', payload: { email }, remoteAddress: OWNER })).statusCode).toBe(200);
    const mail = await smtp.waitForMail((candidate) => candidate.seq >= since && candidate.envelopeTo.includes(email));
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    expect(
      (await t.request({ method: 'POST', url: '/api/password/reset', payload: { token, password: 'after-reset-1' }, remoteAddress: OWNER })).statusCode,
    ).toBe(204);

    expect((await attempt(t, email, 'after-reset-1', OWNER)).statusCode).toBe(200);
    expect((await attempt(t, email, 'wrong-after-reset', ATTACKER)).statusCode).toBe(401);
    // The admin of this app is untouched by all of it.
    expect((await attempt(t, ADMIN_EMAIL, 'admin-password-1', ATTACKER)).statusCode).toBe(200);
  });
});
