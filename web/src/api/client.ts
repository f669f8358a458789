import createClient, { type Middleware } from 'openapi-fetch';
import createQueryHooks from 'openapi-react-query';
import { ApiError, PASSWORD_CHANGE_REQUIRED, toProblem } from '../lib/problems.js';
import { setPasswordChangeRequired } from './password-change.js';
import type { paths } from './schema.js';
import { getSession, setSession, type StoredSession } from './session.js';

/**
 * Every request goes through openapi-fetch, typed by schema.d.ts (generated from the service's own
 * OpenAPI document with `npm run api:types`), so a changed route breaks the type-check here.
 * A failed request throws an ApiError holding the problem (status 0: the server could not be
 * reached), whether it was made directly or through the query hooks ($api).
 */

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

const problems: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const problem = toProblem(response.status, body, response.headers.get('retry-after'));
    if (problem.code === PASSWORD_CHANGE_REQUIRED) setPasswordChangeRequired(true);
    throw new ApiError(problem);
  },
  // A cancelled request (a query no longer wanted) stays an AbortError, which the query layer ignores.
  onError: ({ error }) => (isAbort(error) ? undefined : new ApiError({ status: 0 })),
};

/** For the operations that need no token: sign-in, refresh, forgotten and reset password. */
// fetch is looked up per call (not captured once), like authorizedFetch's, so tests can stand in for it.
export const publicApi = createClient<paths>({ baseUrl: '', fetch: (request) => fetch(request) });
publicApi.use(problems);

// An access token this close to its end is renewed before use rather than after a 401.
const RENEW_BEFORE_MS = 30_000;

let renewing: Promise<StoredSession | undefined> | undefined;

/** The members of a token pair that the tab keeps. */
export const sessionOf = (pair: StoredSession): StoredSession => ({
  accessToken: pair.accessToken,
  refreshToken: pair.refreshToken,
  expiresAt: pair.expiresAt,
  refreshExpiresAt: pair.refreshExpiresAt,
  sessionId: pair.sessionId,
  userId: pair.userId,
});

/**
 * Trades the refresh token for a new pair, once at a time (concurrent callers share the one
 * request: a refresh token is single use). A refused refresh ends the session (sign-in page); a
 * network failure keeps it, so a flaky connection does not sign anybody out.
 */
export function renewSession(): Promise<StoredSession | undefined> {
  const session = getSession();
  if (!session) return Promise.resolve(undefined);
  renewing ??= (async () => {
    try {
      const pair = await call(publicApi.POST('/api/auth/refresh', { body: { refreshToken: session.refreshToken } }));
      const next = sessionOf(pair);
      setSession(next);
      return next;
    } catch (error) {
      if (error instanceof ApiError && error.problem.status === 401) setSession(undefined);
      return undefined;
    } finally {
      renewing = undefined;
    }
  })();
  return renewing;
}

function withToken(request: Request, session: StoredSession | undefined): Request {
  if (session) request.headers.set('Authorization', `Bearer ${session.accessToken}`);
  return request;
}

/** Adds the bearer token; on a 401 renews the session once and repeats the request. */
async function authorizedFetch(request: Request): Promise<Response> {
  let session = getSession();
  if (session && Date.parse(session.expiresAt) - Date.now() < RENEW_BEFORE_MS) session = (await renewSession()) ?? getSession();
  const repeat = request.clone();
  const response = await fetch(withToken(request, session));
  if (response.status !== 401 || !session) return response;
  // Another request may have renewed the pair meanwhile; otherwise renew it now.
  const latest = getSession();
  const renewed = latest && latest.accessToken !== session.accessToken ? latest : await renewSession();
  if (!renewed) {
    // A refused refresh has already ended the session; one that could not be sent ends it here.
    if (getSession()) setSession(undefined);
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
