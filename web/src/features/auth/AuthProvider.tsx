import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { $api, call, CSRF_HEADERS, inRefreshLock, publicApi, restoreSession, serverUnreachableAtRestore, sessionOf } from '../../api/client.js';
import { getSessionSnapshot, onSessionChange, setSession } from '../../api/session.js';
import type { User } from '../../api/types.js';
import { forgetThisBrowser } from '../notifications/push.js';
import { clearOfflineSnapshot } from '../../lib/offline.js';
import { forgetLanguage } from '../../lib/i18n.js';
import { loadProblems, translate } from '../../lib/translate.js';

type AuthState = { status: 'checking' } | { status: 'signed-out'; reason?: string } | { status: 'signed-in'; user: User; sessionId: string };

interface Auth {
  state: AuthState;
  signIn(email: string, password: string): Promise<void>;
  /** Single sign-on: trades the one-time code of the return page for a session. */
  adopt(code: string): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<Auth | undefined>(undefined);

const subscribeSession = (listener: () => void) => onSessionChange(listener);

/**
 * The signed-in person: the browser's session, shared by its tabs (docs/sessions.md), and
 * GET /api/self, which changes of one's name or picture make stale.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { session, restoring } = useSyncExternalStore(subscribeSession, getSessionSnapshot);
  const [reason, setReason] = useState<string>();
  const signedInAs = useRef<string | undefined>(undefined);
  const self = $api.useQuery('get', '/api/self', undefined, { enabled: session !== undefined });

  // A tab that opens is signed in if the browser is (the session cookie), without asking.
  useEffect(() => void restoreSession(), []);

  // Whatever ends the session, nothing read for this person stays cached for the next one in the
  // tab; one that ends by itself (refresh refused, revoked elsewhere) or by a sign-out in another
  // tab says so on the sign-in page. A sign-in as someone else in another tab clears it too.
  useEffect(
    () =>
      onSessionChange((next, change) => {
        const previous = signedInAs.current;
        signedInAs.current = next?.userId;
        if (next) {
          if (previous !== undefined && previous !== next.userId) {
            queryClient.clear();
            clearOfflineSnapshot();
          }
          return;
        }
        queryClient.clear();
        // A sign-out, here or in another tab, leaves nothing of the person for offline use
        // (docs/pwa.md#what-is-never-cached); a tab opened offline keeps the list to show it.
        if (change.signedOut && !serverUnreachableAtRestore()) clearOfflineSnapshot();
        const reason = !change.signedOut ? 'sessionEnded' : change.fromOtherTab ? 'signedOutElsewhere' : undefined;
        if (!reason) setReason(undefined);
        else void loadProblems().then(() => setReason(translate(`problems:general.${reason}`)));
      }),
    [queryClient],
  );

  const signIn = async (email: string, password: string) => {
    // In the refresh lock: no refresh of this or another tab can answer (and clear a cookie) in between.
    const session = await inRefreshLock(() =>
      call(publicApi.POST('/api/auth/web-session', { body: { email: email.trim(), password }, headers: CSRF_HEADERS })),
    );
    setSession(sessionOf(session));
    setReason(undefined);
    await queryClient.fetchQuery($api.queryOptions('get', '/api/self'));
  };

  const adopt = useCallback(
    async (code: string) => {
      // The one-time code of single sign-on (features/oidc); the browser's cookie goes along.
      // After the tab's restore (the same lock): its answer cannot clear the new cookie.
      const session = await inRefreshLock(() => call(publicApi.POST('/api/auth/oidc/web-session', { body: { code }, headers: CSRF_HEADERS })));
      setSession(sessionOf(session));
      setReason(undefined);
      await queryClient.fetchQuery($api.queryOptions('get', '/api/self'));
    },
    [queryClient],
  );

  const signOut = async () => {
    // Push stops in this browser first, while the session may still delete its subscription (docs/notifications.md#threat-model).
    await forgetThisBrowser();
    // The session is revoked and the cookie cleared when the server can be reached; every tab of
    // the browser forgets it in any case (docs/sessions.md#signing-out).
    await inRefreshLock(() => publicApi.DELETE('/api/auth/web-session', { headers: CSRF_HEADERS })).catch(() => undefined);
    setSession(undefined, { signedOut: true });
    clearOfflineSnapshot();
    setReason(undefined);
    // The sign-in page goes back to the browser's language (docs/i18n.md#choosing-the-language).
    forgetLanguage();
  };

  const state: AuthState = restoring
    ? { status: 'checking' }
    : !session
      ? { status: 'signed-out', reason }
      : self.data
        ? { status: 'signed-in', user: self.data, sessionId: session.sessionId }
        : self.error
          ? { status: 'signed-out' }
          : { status: 'checking' };
  return <AuthContext.Provider value={{ state, signIn, adopt, signOut }}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

/** The signed-in user (pages behind sign-in only). */
export function useUser(): { user: User; sessionId: string; isAdmin: boolean } {
  const { state } = useAuth();
  if (state.status !== 'signed-in') throw new Error('useUser while not signed in');
  return { user: state.user, sessionId: state.sessionId, isAdmin: state.user.role === 'ADMIN' };
}
