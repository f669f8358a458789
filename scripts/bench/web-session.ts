/**
 * The browser's session (docs/sessions.md): each connection is one browser. Its first request
 * signs in (POST /api/auth/web-session, which sets the cookie); every later one renews the access
 * token with the cookie the answer before set (POST /api/auth/web-session/refresh: the token's
 * signature, one conditional UPDATE … RETURNING, two signatures, the cookie rotated), as a tab
 * does every ACCESS_TOKEN_TTL and a new tab at its opening. One sign-in per connection costs a
 * password hash; the measured seconds are refreshes.
 *
 * Statements per request are counted on the scenario's static request, the sign-in (the counter
 * sends one request at a time without cookies); a refresh sends one statement, the rotation.
 */
import { BENCH_USER_AGENT } from './database.js';
import { json, type Scenario } from './kit.js';

const CSRF = { 'x-requested-with': 'deskbook-bench' };
const REFRESH = '/api/auth/web-session/refresh';

/** The session cookie's value of a raw header list [name, value, name, value, …], if it sets one. */
function sessionCookieOf(raw: unknown): string | undefined {
  if (!Array.isArray(raw)) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (String(raw[i]).toLowerCase() !== 'set-cookie') continue;
    const match = /^deskbook_session=([^;]*)/.exec(String(raw[i + 1]));
    if (match?.[1]) return match[1];
  }
  return undefined;
}

interface BenchClient {
  setRequests?(requests: { method: string; path: string; headers: Record<string, string>; body?: string }[]): void;
  on?(event: 'headers', listener: (info: { headers?: unknown }) => void): void;
}

export const WEB_SESSION_SCENARIOS: Scenario[] = [
  {
    id: 'web-session-refresh',
    title: 'POST /api/auth/web-session/refresh (the cookie rotated)',
    server: 'app',
    expected: [200],
    load: (context) => {
      let next = 0;
      const users = context.users.slice(0, 1000);
      // autocannon merges these into every request: the refresh, too, sends JSON (an empty object, which it ignores).
      const headers = { ...json, ...CSRF, 'user-agent': BENCH_USER_AGENT };
      return {
        method: 'POST',
        headers,
        // What the statement counter sends, and each connection's first request: a sign-in.
        requests: [{ path: '/api/auth/web-session', body: JSON.stringify({ email: users[0]!.email, password: context.password }) }],
        setupClient: (client) => {
          const browser = client as unknown as BenchClient;
          if (typeof browser.setRequests !== 'function' || typeof browser.on !== 'function') return;
          const person = users[next++ % users.length]!;
          const request = (extra: { path: string; headers: Record<string, string>; body?: string }) => browser.setRequests!([{ method: 'POST', ...extra }]);
          request({ path: '/api/auth/web-session', headers, body: JSON.stringify({ email: person.email, password: context.password }) });
          // Every answer sets the next cookie; the connection's next request presents it (no pipelining: one request at a time).
          browser.on('headers', (info) => {
            const cookie = sessionCookieOf(info.headers);
            if (cookie) request({ path: REFRESH, headers: { ...headers, cookie: `deskbook_session=${cookie}` }, body: '{}' });
          });
        },
      };
    },
  },
];
