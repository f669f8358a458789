import createClient, { type Middleware } from 'openapi-fetch';
import createQueryHooks from 'openapi-react-query';
import { clearOfflineSnapshot } from '../lib/offline.js';
import { ApiError, PASSWORD_CHANGE_REQUIRED, toProblem } from '../lib/problems.js';
import { loadProblems } from '../lib/translate.js';
import { setPasswordChangeRequired } from './password-change.js';
import type { paths } from './schema.js';
import { endRestoring, getSession, setSession, type StoredSession } from './session.js';

/**
 * Every request goes through openapi-fetch, typed by schema.d.ts (generated from the service's own
 * OpenAPI document with `npm run api:types`), so a changed route breaks the type-check here.
 * A failed request throws an ApiError holding the problem (status 0: the server could not be
 * reached), whether it was made directly or through the query hooks ($api).
 */

const REFRESH_PATH = '/api/auth/web-session/refresh' as const;

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

const problems: Middleware = {
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    // The sentence for it may be shown: its words first (docs/i18n.md#what-it-weighs). Not for a
    // refused refresh of the browser's session (a tab opened signed out), which only leads to sign-in.
    if (!request.url.endsWith(REFRESH_PATH)) await loadProblems();
    const problem = toProblem(response.status, body, response.headers.get('retry-after'));
    if (problem.code === PASSWORD_CHANGE_REQUIRED) setPasswordChangeRequired(true);
    throw new ApiError(problem);
  },
  // A cancelled request (a query no longer wanted) stays an AbortError, which the query layer ignores.
  onError: async ({ error }) => {
    if (isAbort(error)) return undefined;
    await loadProblems().catch(() => undefined);
    return new ApiError({ status: 0 });
  },
};

/** For the operations that need no token: sign-in, the browser session's refresh and sign-out, forgotten and reset password. */
// fetch is looked up per call (not captured once), like authorizedFetch's, so tests can stand in for it.
export const publicApi = createClient<paths>({ baseUrl: '', fetch: (request) => fetch(request) });
publicApi.use(problems);

// An access token this close to its end is renewed before use rather than after a 401.
export const RENEW_BEFORE_MS = 30_000;

/**
 * The header the service requires on the operations that read the browser's session cookie: a
 * page of another site can neither send it in a form nor, without CORS, from a script (docs/sessions.md#threat-model).
 */
export const CSRF_HEADERS = { 'X-Requested-With': 'deskbook' } as const;

let renewing: Promise<StoredSession | undefined> | undefined;

/** The members of a web session that the tab keeps (in memory). */
export const sessionOf = (session: StoredSession): StoredSession => ({
  accessToken: session.accessToken,
  expiresAt: session.expiresAt,
  refreshExpiresAt: session.refreshExpiresAt,
  sessionId: session.sessionId,
  userId: session.userId,
});

interface LockManager {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}
/**
 * Runs `work` while no other tab of the browser runs it (Web Locks): two tabs never send the same
 * cookie to be rotated at once. Without Web Locks it just runs; the service forgives a token
 * rotated a moment before (docs/sessions.md#tabs-refreshing-at-once).
 */
export function inRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  return locks ? locks.request('deskbook.refresh', work) : work();
}

const fresh = (session: StoredSession | undefined): session is StoredSession =>
  session !== undefined && Date.parse(session.expiresAt) - Date.now() >= RENEW_BEFORE_MS;

/** Trades the browser's cookie for a new access token; undefined when the service refused it (401). Network failures throw. */
async function refreshFromCookie(): Promise<StoredSession | undefined> {
  try {
    return sessionOf(await call(publicApi.POST(REFRESH_PATH, { headers: CSRF_HEADERS })));
  } catch (error) {
    if (error instanceof ApiError && error.problem.status === 401) return undefined;
    throw error;
  }
}

/**
 * Renews the access token with the browser's cookie, once at a time in this tab (concurrent callers
 * share the one request) and across tabs (a lock). A tab that waited for the lock while another
 * renewed takes that one's token instead of rotating again. A refused refresh ends the session in
 * every tab (sign-in page); a network failure keeps it, so a flaky connection signs nobody out.
 */
export function renewSession(): Promise<StoredSession | undefined> {
  const stale = getSession();
  if (!stale) return Promise.resolve(undefined);
  renewing ??= (async () => {
    try {
      return await inRefreshLock(async () => {
        const latest = getSession();
        if (!latest) return undefined;
        if (latest.accessToken !== stale.accessToken && fresh(latest)) return latest;
        const next = await refreshFromCookie();
        if (!next) {
          if (getSession()) setSession(undefined);
          return undefined;
        }
        setSession(next);
        return next;
      });
    } catch {
      return undefined;
    } finally {
      renewing = undefined;
    }
  })();
  return renewing;
}

let restored: Promise<void> | undefined;

/**
 * A tab opens: the browser's cookie, if any, answers an access token (a sign-in in another tab, or
 * earlier in this one before a reload). Once per page load; nobody signed in is no error.
 */
export function restoreSession(): Promise<void> {
  restored ??= inRefreshLock(async () => {
    // Another tab may have told this one of the session while it waited for the lock.
    if (fresh(getSession())) return;
    const session = await refreshFromCookie();
    if (session) setSession(session);
    else {
      // The server says this browser has no session: nothing of a person's stays for offline use (docs/pwa.md#what-is-never-cached).
      clearOfflineSnapshot();
      endRestoring();
    }
  }).catch((error: unknown) => {
    unreachable = error instanceof ApiError && error.problem.status === 0;
    endRestoring();
  });
  return restored;
}

let unreachable = false;
/** Whether this tab's restore could not reach the server at all (offline): the app then shows its offline page (docs/pwa.md#offline). */
export const serverUnreachableAtRestore = () => unreachable;

function withToken(request: Request, session: StoredSession | undefined): Request {
  if (session) request.headers.set('Authorization', `Bearer ${session.accessToken}`);
  return request;
}

/** Adds the bearer token; on a 401 renews the session once and repeats the request. */
async function authorizedFetch(request: Request): Promise<Response> {
  let session = getSession();
  if (session && !fresh(session)) session = (await renewSession()) ?? getSession();
  const repeat = request.clone();
  const response = await fetch(withToken(request, session));
  if (response.status !== 401 || !session) return response;
  // Another request (or tab) may have renewed the token meanwhile; otherwise renew it now.
  const latest = getSession();
  const renewed = latest && latest.accessToken !== session.accessToken ? latest : await renewSession();
  if (!renewed) {
    // A refused refresh has already ended the session everywhere; one that could not be sent ends
    // it in this tab only (the cookie may well still work once the connection is back).
    if (getSession()) setSession(undefined, { tell: false });
    return response;
  }
  return fetch(withToken(repeat, renewed));
}

export const api = createClient<paths>({ baseUrl: '', fetch: authorizedFetch });
api.use(problems);

/** Typed TanStack Query hooks over `api`: query keys are [method, path, init]. */
export const $api = createQueryHooks(api);

/** The data of a call made directly (failures have thrown an ApiError already). */
export async function call<T>(pending: Promise<{ data?: T }>): Promise<T> {
  return (await pending).data as T;
}

/** Sends a file as multipart/form-data (field `file`), as the image routes take it. */
export const fileBody = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return form;
};
// openapi-fetch would JSON-encode the body; a FormData goes as it is (the browser sets the boundary).
export const asIs = (body: unknown) => body;
