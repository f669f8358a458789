import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../../../src/modules/auth/tokens.js';
import { createTestApp, expectProblem, TestClock, type TestApp } from '../../helpers/app.js';

/**
 * Verified access tokens are remembered (docs/benchmarks.md#statements-per-request): the HMAC is
 * checked once per token, the session on every request.
 */

const SECRET = 'a-test-secret-of-enough-length-0123456789abcdef';
const claims = (n: number) => ({
  userId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  sessionId: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
});

/** Counts the signature checks a TokenService makes. */
function countingVerifications(service: TokenService) {
  return vi.spyOn(service as unknown as { verify: (token: string, audience: string) => Promise<unknown> }, 'verify');
}

describe('verified access token memo', () => {
  it('checks the signature of a token once while it is valid', async () => {
    const clock = new TestClock();
    const service = new TokenService(SECRET, clock);
    const verify = countingVerifications(service);
    const token = await service.signAccess(claims(1), new Date(clock.now().getTime() + 60_000));
    for (let i = 0; i < 5; i += 1) expect(await service.verifyAccess(token)).toEqual(claims(1));
    expect(verify).toHaveBeenCalledTimes(1);
    expect(service.rememberedTokens).toBe(1);
  });

  it('never answers a remembered token at or after its exp', async () => {
    const clock = new TestClock(new Date('2030-01-01T00:00:00Z'));
    const service = new TokenService(SECRET, clock);
    const token = await service.signAccess(claims(1), new Date('2030-01-01T00:01:00Z'));
    expect(await service.verifyAccess(token)).toEqual(claims(1));
    clock.set(new Date('2030-01-01T00:00:59.999Z'));
    expect(await service.verifyAccess(token)).toEqual(claims(1));
    clock.set(new Date('2030-01-01T00:01:00Z'));
    expect(await service.verifyAccess(token)).toBeUndefined();
    expect(service.rememberedTokens).toBe(0);
  });

  it('keeps at most memoSize tokens, dropping the oldest first', async () => {
    const clock = new TestClock();
    const service = new TokenService(SECRET, clock, { memoSize: 2 });
    const expires = new Date(clock.now().getTime() + 60_000);
    const tokens = await Promise.all([1, 2, 3].map((n) => service.signAccess(claims(n), expires)));
    const verify = countingVerifications(service);
    for (const token of tokens) await service.verifyAccess(token);
    expect(service.rememberedTokens).toBe(2);
    verify.mockClear();
    // 2 and 3 are remembered; 1 was the oldest and is checked again (and then 2 is dropped).
    await service.verifyAccess(tokens[2]!);
    await service.verifyAccess(tokens[1]!);
    expect(verify).toHaveBeenCalledTimes(0);
    expect(await service.verifyAccess(tokens[0]!)).toEqual(claims(1));
    expect(verify).toHaveBeenCalledTimes(1);
    expect(service.rememberedTokens).toBe(2);
  });

  it('remembers nothing with memoSize 0, and never a token that failed', async () => {
    const clock = new TestClock();
    const service = new TokenService(SECRET, clock, { memoSize: 0 });
    const token = await service.signAccess(claims(1), new Date(clock.now().getTime() + 60_000));
    expect(await service.verifyAccess(token)).toEqual(claims(1));
    expect(service.rememberedTokens).toBe(0);
    const other = new TokenService(SECRET, clock);
    expect(await other.verifyAccess(`${token.slice(0, -2)}xx`)).toBeUndefined();
    expect(await other.verifyAccess('a.b.c')).toBeUndefined();
    expect(other.rememberedTokens).toBe(0);
  });

  describe('with the service', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('refuses a remembered token at once when its session is revoked', async () => {
      const admin = await t.adminToken();
      await t.createUser({ email: 'memo@example.test', password: 'memo-password-1' });
      const pair = await t.login('memo@example.test', 'memo-password-1');
      expect((await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).statusCode).toBe(200);
      const revoked = await t.request({ method: 'DELETE', url: `/api/sessions/${pair.sessionId}`, token: admin });
      expect(revoked.statusCode).toBe(204);
      expectProblem(await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken }), 401, 'INVALID_TOKEN');
    });

    it('refuses a remembered token at once when its user is disabled', async () => {
      const admin = await t.adminToken();
      const user = await t.createUser({ email: 'memo2@example.test', password: 'memo-password-1' });
      const pair = await t.login('memo2@example.test', 'memo-password-1');
      expect((await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken })).statusCode).toBe(200);
      const disabled = await t.request({ method: 'PUT', url: `/api/users/${user.id}`, token: admin, payload: { enabled: false } });
      expect(disabled.statusCode).toBe(200);
      expectProblem(await t.request({ method: 'GET', url: '/api/self', token: pair.accessToken }), 401, 'INVALID_TOKEN');
    });
  });
});
