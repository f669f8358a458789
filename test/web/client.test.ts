import { beforeAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestI18n } from '../helpers/i18n.js';

// The problem sentences and waits are English keys' values (docs/i18n.md).
beforeAll(() => startTestI18n('en'));

/**
 * The web app's API client (web/src/api/client.ts) against a fake server: the bearer token on
 * every call, one refresh on a 401 (with the browser's session cookie, docs/sessions.md) and the
 * call repeated, sign-out when the refresh is refused.
 */

// The app uses relative URLs, resolved by the browser against the page; Node needs a base.
const ORIGIN = 'http://deskbook.test';
class PageRequest extends Request {
  constructor(input: string | URL | Request, init?: RequestInit) {
    super(typeof input === 'string' && input.startsWith('/') ? new URL(input, ORIGIN) : input, init);
  }
}
globalThis.Request = PageRequest;

const { $api, api, call } = await import('../../web/src/api/client.js');
const { getSession, onSessionChange, setSession } = await import('../../web/src/api/session.js');
const { passwordChangeRequired, setPasswordChangeRequired } = await import('../../web/src/api/password-change.js');
const { createQueryClient } = await import('../../web/src/api/query.js');
const { ApiError } = await import('../../web/src/lib/problems.js');

const HOUR = 3_600_000;
const pair = (n: number, expiresInMs = HOUR) => ({
  accessToken: `access-${n}`,
  expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  refreshExpiresAt: new Date(Date.now() + 24 * HOUR).toISOString(),
  sessionId: '5a1e0000-0000-4000-8000-000000000001',
  userId: '5a1e0000-0000-4000-8000-000000000002',
});

const SELF = { id: '5a1e0000-0000-4000-8000-000000000002', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test', hasAvatar: false };
const json = (status: number, body: unknown, type = 'application/json') => new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
const problem = (status: number, code: string) =>
  json(status, { type: `urn:deskbook:problem:${code.toLowerCase()}`, title: code, status, detail: code, instance: '/', code }, 'application/problem+json');

/**
 * A fake service: accepts one access token at a time and rotates the browser's refresh cookie
 * (`cookie` stands for the browser's cookie jar, which Node does not have).
 */
class FakeServer {
  validAccess = 'access-1';
  /** The session of the cookie is live (false: revoked, so the refresh is refused). */
  cookieValid = true;
  next = 2;
  calls: { method: string; path: string; authorization: string | null; body: string }[] = [];
  refreshes = 0;
  csrfHeaders: (string | null)[] = [];
  /** The signed-in account still has the password it was created with. */
  generatedPassword = false;

  fetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const body = await request.text();
    this.calls.push({ method: request.method, path, authorization: request.headers.get('authorization'), body });
    if (path === '/api/auth/web-session/refresh') {
      this.refreshes += 1;
      this.csrfHeaders.push(request.headers.get('x-requested-with'));
      // Answer after the other requests of the same moment have arrived, as a real server would.
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (!this.cookieValid) return problem(401, 'INVALID_REFRESH_TOKEN');
      const fresh = pair(this.next++);
      this.validAccess = fresh.accessToken;
      return json(200, { ...fresh, tokenType: 'Bearer' });
    }
    if (request.headers.get('authorization') !== `Bearer ${this.validAccess}`) return problem(401, 'INVALID_TOKEN');
    if (path === '/api/self/password' && request.method === 'PUT') {
      this.generatedPassword = false;
      return new Response(null, { status: 204 });
    }
    if (path === '/api/self' && request.method === 'PUT') return json(200, { ...SELF, ...(JSON.parse(body) as object) });
    if (path === '/api/self') return json(200, SELF);
    if (this.generatedPassword) return problem(403, 'PASSWORD_CHANGE_REQUIRED');
    if (path === '/api/users') return problem(403, 'FORBIDDEN');
    if (path === '/api/stats') return new Response('', { status: 502 });
    if (path === '/api/departments')
      return json(200, { content: [], totalElements: 0, totalPages: 0, number: 0, size: 20, first: true, last: true, empty: true });
    return problem(404, 'ROUTE_NOT_FOUND');
  };
}

let server: FakeServer;
const realFetch = globalThis.fetch;

beforeEach(() => {
  server = new FakeServer();
  globalThis.fetch = server.fetch as typeof fetch;
  setSession(pair(1));
});

afterEach(() => {
  globalThis.fetch = realFetch;
  setSession(undefined);
  setPasswordChangeRequired(false);
});

describe('the API client', () => {
  it('sends the access token and answers the typed data', async () => {
    expect(await call(api.GET('/api/self'))).toEqual(SELF);
    expect(server.calls).toEqual([{ method: 'GET', path: '/api/self', authorization: 'Bearer access-1', body: '' }]);
  });

  it('renews the session once on a 401 and repeats the call, body and all', async () => {
    server.validAccess = 'revoked-elsewhere';
    // The access token is refused: the pair is renewed and the call goes again with the new token.
    const updated = await call(api.PUT('/api/self', { body: { firstName: 'Augusta' } }));
    expect(updated.firstName).toBe('Augusta');
    expect(server.calls.map((item) => [item.method, item.path, item.authorization, item.body])).toEqual([
      ['PUT', '/api/self', 'Bearer access-1', '{"firstName":"Augusta"}'],
      ['POST', '/api/auth/web-session/refresh', null, ''],
      ['PUT', '/api/self', 'Bearer access-2', '{"firstName":"Augusta"}'],
    ]);
    // The refresh token is the cookie's (no body), and the CSRF header goes along.
    expect(server.csrfHeaders).toEqual(['deskbook']);
    // The new access token is kept for the next calls, in memory only.
    expect(getSession()?.accessToken).toBe('access-2');
    expect(getSession()).not.toHaveProperty('refreshToken');
  });

  it('shares one refresh between calls refused at the same time', async () => {
    server.validAccess = 'expired';
    const answers = await Promise.all([call(api.GET('/api/self')), call(api.GET('/api/self')), call(api.GET('/api/self'))]);
    expect(answers).toEqual([SELF, SELF, SELF]);
    expect(server.refreshes).toBe(1);
  });

  it('ends the session when the refresh is refused, and reports the 401', async () => {
    server.validAccess = 'expired';
    server.cookieValid = false;
    const ended: unknown[] = [];
    const stop = onSessionChange((session) => ended.push(session));
    try {
      const failure = await call(api.GET('/api/self')).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as InstanceType<typeof ApiError>).problem).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
      expect(getSession()).toBeUndefined();
      expect(ended).toEqual([undefined]);
      // Only one refresh is tried, never a loop.
      expect(server.refreshes).toBe(1);
    } finally {
      stop();
    }
  });

  it('renews an access token about to expire before using it', async () => {
    setSession(pair(1, 5_000));
    await call(api.GET('/api/self'));
    expect(server.calls.map((item) => [item.path, item.authorization])).toEqual([
      ['/api/auth/web-session/refresh', null],
      ['/api/self', 'Bearer access-2'],
    ]);
  });

  it('sends no token and tries no refresh when nobody is signed in', async () => {
    setSession(undefined);
    const failure = await call(api.GET('/api/self')).catch((error: unknown) => error);
    expect((failure as InstanceType<typeof ApiError>).problem.status).toBe(401);
    expect(server.calls).toEqual([{ method: 'GET', path: '/api/self', authorization: null, body: '' }]);
  });

  it('reports an unreachable server as status 0', async () => {
    globalThis.fetch = (async () => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;
    const failure = await call(api.GET('/api/self')).catch((error: unknown) => error);
    expect((failure as InstanceType<typeof ApiError>).problem).toEqual({ status: 0 });
    // A connection failure does not sign anybody out.
    expect(getSession()?.accessToken).toBe('access-1');
  });
});

interface Channel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void, options?: { once?: boolean }): void;
  close(): void;
}
/** Another tab of the browser, as the session module hears it (docs/sessions.md#tabs). */
const otherTab = () => new (globalThis as unknown as { BroadcastChannel: new (name: string) => Channel }).BroadcastChannel('deskbook.session');
/** The next message another tab hears. */
const nextMessage = (channel: Channel) =>
  new Promise<unknown>((resolve) => channel.addEventListener('message', (event) => resolve(event.data), { once: true }));
/** Waits until `condition` holds (a message between channels takes a turn of the event loop). */
const until = async (condition: () => boolean) => {
  for (let turn = 0; turn < 100 && !condition(); turn += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe('the tabs of one browser (docs/sessions.md#tabs)', () => {
  it('tell each other of a sign-in, a renewed token and a sign-out', async () => {
    const tab = otherTab();
    try {
      const heard = nextMessage(tab);
      const session = pair(7);
      setSession(session);
      expect(await heard).toEqual({ type: 'session', session });
      const ended = nextMessage(tab);
      setSession(undefined, { signedOut: true });
      expect(await ended).toEqual({ type: 'ended', signedOut: true });
    } finally {
      tab.close();
    }
  });

  it('take the session another tab signed in or renewed, and end with its sign-out', async () => {
    const tab = otherTab();
    const changes: unknown[] = [];
    const stop = onSessionChange((session, change) => changes.push([session?.accessToken, change]));
    try {
      tab.postMessage({ type: 'session', session: pair(8) });
      await until(() => getSession()?.accessToken === 'access-8');
      tab.postMessage({ type: 'ended', signedOut: true });
      await until(() => getSession() === undefined);
      expect(changes).toEqual([
        ['access-8', { fromOtherTab: true, signedOut: false }],
        [undefined, { fromOtherTab: true, signedOut: true }],
      ]);
    } finally {
      stop();
      tab.close();
    }
  });

  it('renew one at a time: a tab that waited for the lock takes the token the other one renewed', async () => {
    server.validAccess = 'expired';
    const tab = otherTab();
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // The other tab holds the refresh lock while it renews.
    const other = navigator.locks.request('deskbook.refresh', () => {
      held();
      return new Promise<void>((resolve) => (release = resolve));
    });
    try {
      await holding;
      const answer = call(api.GET('/api/self'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Nothing was sent to be rotated while the other tab held the lock.
      expect(server.refreshes).toBe(0);
      server.validAccess = 'access-9';
      tab.postMessage({ type: 'session', session: pair(9) });
      await until(() => getSession()?.accessToken === 'access-9');
      release();
      await other;
      expect(await answer).toEqual(SELF);
      expect(server.refreshes).toBe(0);
    } finally {
      release?.();
      tab.close();
    }
  });
});

describe('the query hooks over the client', () => {
  it('answer the data, and fail with the ApiError, even for an answer without a body', async () => {
    const queries = createQueryClient();
    expect(await queries.fetchQuery($api.queryOptions('get', '/api/self'))).toEqual(SELF);
    // openapi-react-query alone would take an empty error body for success (undefined data).
    const failure = await queries.fetchQuery($api.queryOptions('get', '/api/stats')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as InstanceType<typeof ApiError>).problem).toEqual({ status: 502 });
  });
});

describe('an account that must choose its own password', () => {
  it('is detected from the first refused operation, whichever it is', async () => {
    server.generatedPassword = true;
    // GET /api/self is allowed: signing in works and says nothing.
    await call(api.GET('/api/self'));
    expect(passwordChangeRequired()).toBe(false);
    const failure = await createQueryClient()
      .fetchQuery($api.queryOptions('get', '/api/departments'))
      .catch((error: unknown) => error);
    expect((failure as InstanceType<typeof ApiError>).problem).toMatchObject({ status: 403, code: 'PASSWORD_CHANGE_REQUIRED' });
    expect(passwordChangeRequired()).toBe(true);
  });

  it('is not confused with an operation that is simply forbidden', async () => {
    const failure = await call(api.GET('/api/users')).catch((error: unknown) => error);
    expect((failure as InstanceType<typeof ApiError>).problem).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(passwordChangeRequired()).toBe(false);
  });

  it('is forgotten when the session ends, so the next person in the tab starts without it', async () => {
    server.generatedPassword = true;
    await call(api.GET('/api/departments')).catch(() => undefined);
    expect(passwordChangeRequired()).toBe(true);
    setSession(undefined);
    expect(passwordChangeRequired()).toBe(false);
  });
});
