import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { EncryptJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.js';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { OidcBrowser, fragmentOf } from '../../helpers/oidc-flow.js';
import { startOidcProvider, type TestAccount, type TestProvider } from '../../helpers/oidc-provider.js';

/**
 * Single sign-on against a real OpenID Provider (oidc-provider, in-process on a free port), driven
 * over HTTP like a browser: follow redirects, post the provider's login and consent forms.
 * docs/behaviour.md#single-sign-on-openid-connect and docs/behaviour.md#roles-from-the-provider-or-the-directory.
 */

const PUBLIC_URL = 'http://deskbook.test';
const REDIRECT_URI = `${PUBLIC_URL}/api/auth/oidc/callback`;

let provider: TestProvider;
let counter = 0;

function account(overrides: Partial<TestAccount> = {}): TestAccount {
  counter += 1;
  const sub = overrides.sub ?? `subject-${counter}`;
  const created: TestAccount = {
    sub,
    email: `person${counter}@example.test`,
    email_verified: true,
    given_name: 'Pat',
    family_name: `Person${counter}`,
    ...overrides,
  };
  provider.accounts.set(sub, created);
  return created;
}

const oidcEnv = (extra: Record<string, string> = {}) => ({
  PUBLIC_URL,
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: provider.clientId,
  OIDC_CLIENT_SECRET: provider.clientSecret,
  OIDC_DISPLAY_NAME: 'Test IdP',
  OIDC_TIMEOUT: '2s',
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000',
  ...extra,
});

async function self(t: TestApp, token: string) {
  const response = await t.request({ method: 'GET', url: '/api/self', token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ id: string; email: string; firstName: string; lastName: string; role: string }>();
}

async function userCount(t: TestApp): Promise<number> {
  const response = await t.request({ method: 'GET', url: '/api/users', token: await t.adminToken(), query: { size: '1' } });
  return response.json<{ totalElements: number }>().totalElements;
}

/** The callback's answer when it must refuse: problem+json for an API client, never a code. */
function expectRefusedCallback(response: Awaited<ReturnType<OidcBrowser['callback']>>, status: number, code: string) {
  expect(fragmentOf(response).get('code')).toBeNull();
  return expectProblem(response, status, code);
}

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUri: REDIRECT_URI });
});
afterAll(() => provider.stop());

describe('single sign-on switched off', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('says so publicly and refuses to start', async () => {
    const status = await t.request({ method: 'GET', url: '/api/auth/oidc' });
    expect(status.json()).toEqual({ enabled: false, displayName: null, startUrl: null });
    expectProblem(await t.request({ method: 'GET', url: '/api/auth/oidc/start' }), 404, 'OIDC_DISABLED');
    expectProblem(await t.request({ method: 'POST', url: '/api/auth/oidc/exchange', payload: { code: 'x' } }), 404, 'OIDC_DISABLED');
  });
});

describe('single sign-on with auto-create', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: oidcEnv({ OIDC_AUTO_CREATE: 'true' }) })));
  afterAll(() => t.close());

  it('tells the web app it is on and what the button says', async () => {
    const status = await t.request({ method: 'GET', url: '/api/auth/oidc' });
    expect(status.json()).toEqual({ enabled: true, displayName: 'Test IdP', startUrl: '/api/auth/oidc/start' });
  });

  it('starts with PKCE, state and nonce, bound to the browser by an HttpOnly cookie', async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/oidc/start' });
    expect(response.statusCode).toBe(303);
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    expect(location.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(String(response.headers['set-cookie'])).toMatch(/^deskbook_oidc=[^;]+; Path=\/api\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/);
  });

  it('creates the account at the first sign-in and signs in by sub afterwards, with a session like a password sign-in', async () => {
    const person = account({ given_name: 'Olga', family_name: 'Idp' });
    const before = await userCount(t);
    const browser = new OidcBrowser(t, PUBLIC_URL);
    const first = await browser.signIn(person.sub);
    expect(first.callback.statusCode).toBe(303);
    expect(String(first.callback.headers.location)).toMatch(new RegExp(`^${PUBLIC_URL}/sign-in/sso#code=[A-Za-z0-9_-]{43}$`));
    expect(first.exchange?.statusCode, first.exchange?.body).toBe(200);
    const pair = first.pair!;
    expect(Object.keys(pair).sort()).toEqual(['accessToken', 'expiresAt', 'refreshExpiresAt', 'refreshToken', 'sessionId', 'tokenType', 'userId']);
    const me = await self(t, pair.accessToken);
    expect(me).toMatchObject({ email: person.email, firstName: 'Olga', lastName: 'Idp', role: 'USER' });
    expect(await userCount(t)).toBe(before + 1);

    // The session is an ordinary one: listed, refreshed with rotation, ended by logout.
    const sessions = await t.request({ method: 'GET', url: `/api/users/${me.id}/sessions`, token: pair.accessToken });
    expect(sessions.json().content.map((s: { id: string }) => s.id)).toContain(pair.sessionId);
    const refreshed = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } });
    expect(refreshed.statusCode).toBe(200);
    expectProblem(await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } }), 401, 'REFRESH_TOKEN_REUSED');

    const identity = await t.request({ method: 'GET', url: `/api/users/${me.id}/oidc-identity`, token: (await browser.signIn(person.sub)).pair!.accessToken });
    expect(identity.json()).toMatchObject({ linked: true, issuer: provider.issuer, subject: person.sub });

    // Once linked, the sub alone finds the user, whatever the e-mail says now.
    provider.accounts.set(person.sub, { ...person, email: 'changed@example.test' });
    const again = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expect(again.pair?.userId).toBe(me.id);
    expect(await userCount(t)).toBe(before + 1);
  });

  it('refuses a tampered state, a state from another browser, and a replayed callback, code or exchange', async () => {
    const person = account();
    const browser = new OidcBrowser(t, PUBLIC_URL);
    const callbackUrl = await browser.throughProvider(await browser.start(), person.sub);

    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    expectRefusedCallback(await browser.callback(tampered.href), 400, 'OIDC_STATE_INVALID');
    // Another browser (no cookie, or another one) cannot finish this sign-in.
    expectRefusedCallback(await browser.callback(callbackUrl, { cookie: 'deskbook_oidc=someone-else' }), 400, 'OIDC_STATE_INVALID');

    const ok = await browser.callback(callbackUrl);
    const code = fragmentOf(ok).get('code')!;
    expect(code).toBeTruthy();
    // The same answer of the provider a second time: the state is used up.
    expectRefusedCallback(await browser.callback(callbackUrl), 400, 'OIDC_STATE_INVALID');
    // The one-time code: not without a cookie, not from another browser holding its own valid
    // cookie (a code of its own waiting beside it), then once, then never again, from the same
    // browser with the same cookie.
    const stranger = await t.request({ method: 'POST', url: '/api/auth/oidc/exchange', payload: { code } });
    expectProblem(stranger, 400, 'OIDC_CODE_INVALID');
    const other = new OidcBrowser(t, PUBLIC_URL);
    const otherCode = fragmentOf(await other.callback(await other.throughProvider(await other.start(), account().sub))).get('code')!;
    expect(otherCode).toBeTruthy();
    expectProblem(await other.exchange(code), 400, 'OIDC_CODE_INVALID');
    const cookie = browser.app.header();
    expect(cookie).toMatch(/^deskbook_oidc=[A-Za-z0-9_-]{43}$/);
    expect((await browser.exchange(code)).statusCode).toBe(200);
    const twice = await t.request({ method: 'POST', url: '/api/auth/oidc/exchange', payload: { code }, headers: { cookie } });
    expectProblem(twice, 400, 'OIDC_CODE_INVALID');

    // The provider's code replayed in a fresh, valid flow: the provider refuses it.
    const fresh = new OidcBrowser(t, PUBLIC_URL);
    const freshCallback = new URL(await fresh.throughProvider(await fresh.start(), person.sub));
    freshCallback.searchParams.set('code', new URL(callbackUrl).searchParams.get('code')!);
    expectRefusedCallback(await fresh.callback(freshCallback.href), 400, 'OIDC_PROVIDER_ERROR');
  });

  it("signs the web app's browser in with the session cookie instead of a token pair (docs/sessions.md)", async () => {
    const person = account();
    const browser = new OidcBrowser(t, PUBLIC_URL);
    const code = fragmentOf(await browser.callback(await browser.throughProvider(await browser.start(), person.sub))).get('code')!;
    const exchange = (headers: Record<string, string>) =>
      t.request({ method: 'POST', url: '/api/auth/oidc/web-session', payload: { code }, headers: { cookie: browser.app.header(), ...headers } });
    // Without the CSRF header nothing happens, and the code is not used up.
    expectProblem(await exchange({}), 403, 'CSRF_HEADER_REQUIRED');
    const answer = await exchange({ 'x-requested-with': 'deskbook' });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt', 'refreshExpiresAt', 'sessionId', 'tokenType', 'userId']);
    const cookies = [answer.headers['set-cookie']].flat().map(String);
    // The sign-in's own cookie is cleared; the session's is set, HttpOnly and SameSite=Strict.
    expect(cookies.find((line) => line.startsWith('deskbook_oidc='))).toMatch(/Max-Age=0/);
    const session = cookies.find((line) => line.startsWith('deskbook_session='))!;
    expect(session.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Path=/api/auth/web-session', 'SameSite=Strict']);
    expect((await self(t, body.accessToken)).email).toBe(person.email);
    // The cookie refreshes like a password sign-in's.
    const refreshed = await t.request({
      method: 'POST',
      url: '/api/auth/web-session/refresh',
      headers: { cookie: session.split(';')[0]!, 'x-requested-with': 'deskbook' },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json().sessionId).toBe(body.sessionId);
  });

  it('keeps a sign-in in progress in its encrypted cookie: 2,000 starts write no row (docs/behaviour.md#single-sign-on-openid-connect)', async () => {
    const rows = async () => (await queryRows<{ n: number }>(t.database.handle.db, sql`select count(*)::int as n from oidc_flows`))[0]!.n;
    const before = await rows();
    const starts: string[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => t.request({ method: 'GET', url: '/api/auth/oidc/start' })));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(303);
        starts.push(String(answer.headers['set-cookie']));
      }
    }
    expect(starts).toHaveLength(2000);
    expect(await rows()).toBe(before);
    // The cookie is opaque (a JWE), HttpOnly, and holds none of the secrets in clear.
    expect(starts[0]).toMatch(
      /^deskbook_oidc=[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Path=\/api\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
    const location = new URL(String((await t.request({ method: 'GET', url: '/api/auth/oidc/start' })).headers.location));
    expect(starts.join('\n')).not.toContain(location.searchParams.get('state')!);
    // A cookie of another key (another installation) or an expired one is refused.
    const browser = new OidcBrowser(t, PUBLIC_URL);
    const callbackUrl = await browser.throughProvider(await browser.start(), account().sub);
    const foreign = await new EncryptJWT({ s: new URL(callbackUrl).searchParams.get('state'), n: 'x', v: 'y' })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setExpirationTime('10m')
      .encrypt(new Uint8Array(32));
    expectRefusedCallback(await browser.callback(callbackUrl, { cookie: `deskbook_oidc=${foreign}` }), 400, 'OIDC_STATE_INVALID');
    t.clock.advance(10 * 60_000 + 1000);
    try {
      expectRefusedCallback(await browser.callback(callbackUrl), 400, 'OIDC_STATE_INVALID');
    } finally {
      t.clock.advance(-(10 * 60_000 + 1000));
    }
    expect(fragmentOf(await browser.callback(callbackUrl)).get('code')).toBeTruthy();
    expect(await rows()).toBe(before + 1);
  });

  it('sends a browser to the web app with the error code instead of problem+json', async () => {
    const browser = new OidcBrowser(t, PUBLIC_URL);
    const callbackUrl = new URL(await browser.throughProvider(await browser.start(), account().sub));
    callbackUrl.searchParams.set('state', 'forged');
    const response = await browser.callback(callbackUrl.href, { accept: 'text/html,application/xhtml+xml' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/sign-in/sso#error=OIDC_STATE_INVALID`);
  });

  describe('ID token verification', () => {
    const cases: [string, Partial<Pick<TestProvider, 'tamper' | 'signWithForeignKey'>>][] = [
      ['a wrong nonce', { tamper: (claims) => ({ ...claims, nonce: 'not-the-one-we-sent' }) }],
      ['a wrong audience', { tamper: (claims) => ({ ...claims, aud: 'another-client' }) }],
      ['an expired token', { tamper: (claims) => ({ ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }) }],
      ['another issuer', { tamper: (claims) => ({ ...claims, iss: 'http://evil.test' }) }],
      ['a signature by another key', { signWithForeignKey: true }],
    ];
    for (const [name, trick] of cases) {
      it(`refuses ${name}, and no session is made`, async () => {
        const person = account();
        const before = await userCount(t);
        Object.assign(provider, trick);
        try {
          const { callback } = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
          expectRefusedCallback(callback, 401, 'OIDC_TOKEN_INVALID');
        } finally {
          provider.tamper = undefined;
          provider.signWithForeignKey = false;
        }
        expect(await userCount(t)).toBe(before);
      });
    }
  });

  it('refuses a disabled account', async () => {
    const person = account();
    const { pair } = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    const disabled = await t.request({ method: 'PUT', url: `/api/users/${pair!.userId}`, token: await t.adminToken(), payload: { enabled: false } });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const { callback } = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expectRefusedCallback(callback, 403, 'OIDC_ACCOUNT_DISABLED');
  });

  it('answers the error the provider sends back (access denied)', async () => {
    const browser = new OidcBrowser(t, PUBLIC_URL);
    const start = new URL(await browser.start());
    const response = await browser.callback(
      `${REDIRECT_URI}?error=access_denied&state=${start.searchParams.get('state')}&iss=${encodeURIComponent(provider.issuer)}`,
    );
    expectRefusedCallback(response, 400, 'OIDC_PROVIDER_ERROR');
  });
});

describe('linking without auto-create', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ env: oidcEnv() })));
  afterAll(() => t.close());

  it('links an account without password by a verified e-mail', async () => {
    const person = account();
    const user = await t.createUser({ email: person.email!.toUpperCase() });
    const { pair } = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expect(pair?.userId).toBe(user.id);
  });

  it('refuses an unverified e-mail and creates nobody', async () => {
    const person = account({ email_verified: false });
    const user = await t.createUser({ email: person.email! });
    const { callback } = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expect(expectRefusedCallback(callback, 403, 'OIDC_NO_ACCOUNT').subject).toBe(person.sub);
    const identity = await t.request({ method: 'GET', url: `/api/users/${user.id}/oidc-identity`, token: await t.adminToken() });
    expect(identity.json()).toMatchObject({ linked: false, subject: null });
  });

  it('refuses someone unknown here when accounts are not created, and tells the web app the identity to link', async () => {
    const before = await userCount(t);
    const person = account();
    const { callback } = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expectRefusedCallback(callback, 403, 'OIDC_NO_ACCOUNT');
    expect(await userCount(t)).toBe(before);
    const browser = new OidcBrowser(t, PUBLIC_URL);
    const page = await browser.callback(await browser.throughProvider(await browser.start(), person.sub), { accept: 'text/html' });
    expect(page.headers.location).toBe(`${PUBLIC_URL}/sign-in/sso#error=OIDC_NO_ACCOUNT&subject=${person.sub}`);
  });

  it('never takes over a password or directory account by e-mail; an admin links and unlinks it', async () => {
    const person = account();
    const user = await t.createUser({ email: person.email!, password: 'local-password-1' });
    const directoryPerson = account();
    await t.createUser({ email: directoryPerson.email!, ldap: true });
    expectRefusedCallback((await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub)).callback, 403, 'OIDC_NO_ACCOUNT');
    expectRefusedCallback((await new OidcBrowser(t, PUBLIC_URL).signIn(directoryPerson.sub)).callback, 403, 'OIDC_NO_ACCOUNT');

    const admin = await t.adminToken();
    const url = `/api/users/${user.id}/oidc-identity`;
    const userToken = (await t.login(person.email!, 'local-password-1')).accessToken;
    expectProblem(await t.request({ method: 'PUT', url, token: userToken, payload: { subject: person.sub } }), 403, 'FORBIDDEN');
    const linked = await t.request({ method: 'PUT', url, token: admin, payload: { subject: person.sub } });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ linked: true, subject: person.sub, issuer: provider.issuer });
    expectProblem(await t.request({ method: 'PUT', url, token: admin, payload: { subject: 'other' } }), 409, 'OIDC_ALREADY_LINKED');
    // The user sees their own link (the profile shows how the account signs in).
    expect((await t.request({ method: 'GET', url, token: userToken })).json()).toMatchObject({ linked: true });

    expect((await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub)).pair?.userId).toBe(user.id);

    expect((await t.request({ method: 'DELETE', url, token: admin })).statusCode).toBe(204);
    expectProblem(await t.request({ method: 'DELETE', url, token: admin }), 404, 'NOT_FOUND');
    expectRefusedCallback((await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub)).callback, 403, 'OIDC_NO_ACCOUNT');
  });
});

describe('roles from the provider claim', () => {
  let t: TestApp;
  beforeAll(
    async () => (t = await createTestApp({ env: oidcEnv({ OIDC_AUTO_CREATE: 'true', OIDC_ROLE_CLAIM: 'groups', OIDC_ADMIN_VALUES: 'deskbook-admins, ops' }) })),
  );
  afterAll(() => t.close());

  it('promotes and demotes at the next sign-in, but never the last enabled admin', async () => {
    const person = account({ groups: ['staff', 'deskbook-admins'] });
    const first = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expect((await self(t, first.pair!.accessToken)).role).toBe('ADMIN');

    provider.accounts.set(person.sub, { ...person, groups: ['staff'] });
    const second = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expect((await self(t, second.pair!.accessToken)).role).toBe('USER');

    // Admin again; then the bootstrap admin is disabled, so this is the last enabled admin.
    provider.accounts.set(person.sub, { ...person, groups: ['ops'] });
    const third = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expect((await self(t, third.pair!.accessToken)).role).toBe('ADMIN');
    const adminId = (await self(t, await t.adminToken())).id;
    const disabled = await t.request({ method: 'PUT', url: `/api/users/${adminId}`, token: third.pair!.accessToken, payload: { enabled: false } });
    expect(disabled.statusCode, disabled.body).toBe(200);

    provider.accounts.set(person.sub, { ...person, groups: [] });
    const fourth = await new OidcBrowser(t, PUBLIC_URL).signIn(person.sub);
    expect((await self(t, fourth.pair!.accessToken)).role).toBe('ADMIN');
  });
});

describe('a provider that does not answer', () => {
  it('answers 503 within OIDC_TIMEOUT when discovery hangs, and the web app gets the error', async () => {
    const sockets: Socket[] = [];
    const blackHole: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const t = await createTestApp({
      env: { ...oidcEnv(), OIDC_ISSUER: `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`, OIDC_TIMEOUT: '500ms' },
    });
    try {
      const started = Date.now();
      expectProblem(await t.request({ method: 'GET', url: '/api/auth/oidc/start' }), 503, 'SERVICE_UNAVAILABLE');
      expect(Date.now() - started).toBeLessThan(3000);
      const page = await t.request({ method: 'GET', url: '/api/auth/oidc/start', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe(`${PUBLIC_URL}/sign-in/sso#error=SERVICE_UNAVAILABLE`);
    } finally {
      await t.close();
      for (const socket of sockets) socket.destroy();
      blackHole.close();
    }
  });

  it('answers 503 when the provider goes down between start and callback', async () => {
    const own = await startOidcProvider({ redirectUri: REDIRECT_URI });
    own.accounts.set('someone', { sub: 'someone', email: 'someone@example.test', email_verified: true });
    const t = await createTestApp({
      env: { ...oidcEnv({ OIDC_AUTO_CREATE: 'true' }), OIDC_ISSUER: own.issuer, OIDC_CLIENT_ID: own.clientId, OIDC_CLIENT_SECRET: own.clientSecret },
    });
    try {
      const browser = new OidcBrowser(t, PUBLIC_URL);
      const callbackUrl = await browser.throughProvider(await browser.start(), 'someone');
      await own.stop();
      expectRefusedCallback(await browser.callback(callbackUrl), 503, 'SERVICE_UNAVAILABLE');
    } finally {
      await t.close();
    }
  });
});
