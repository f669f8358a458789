import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { $api, api, call, publicApi, sessionOf } from '../../api/client.js';
import { getSession, onSessionChange, setSession } from '../../api/session.js';
import type { User } from '../../api/types.js';
import { forgetLanguage } from '../../lib/i18n.js';
import { translate } from '../../lib/translate.js';

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

/** The signed-in person: the stored session and GET /api/self, which changes of one's name or picture make stale. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSyncExternalStore(subscribeSession, getSession);
  const [reason, setReason] = useState<string>();
  const signingOut = useRef(false);
  const self = $api.useQuery('get', '/api/self', undefined, { enabled: session !== undefined });

  // Whatever ends the session, nothing read for this person stays cached for the next one in the
  // tab; one that ends by itself (refresh refused, revoked elsewhere) says so on the sign-in page.
  useEffect(
    () =>
      onSessionChange((next) => {
        if (next) return;
        queryClient.clear();
        if (!signingOut.current) setReason(translate('problems:general.sessionEnded'));
      }),
    [queryClient],
  );

  const signIn = async (email: string, password: string) => {
    const pair = await call(publicApi.POST('/api/auth/login', { body: { email: email.trim(), password } }));
    setSession(sessionOf(pair));
    setReason(undefined);
    await queryClient.fetchQuery($api.queryOptions('get', '/api/self'));
  };

  const adopt = useCallback(
    async (code: string) => {
      // The one-time code of single sign-on (features/oidc); the browser's cookie goes along.
      const pair = await call(publicApi.POST('/api/auth/oidc/exchange', { body: { code } }));
      setSession(sessionOf(pair));
      setReason(undefined);
      await queryClient.fetchQuery($api.queryOptions('get', '/api/self'));
    },
    [queryClient],
  );

  const signOut = async () => {
    // The session is revoked on the server when it can be reached; it is forgotten here in any case.
    await api.POST('/api/auth/logout').catch(() => undefined);
    signingOut.current = true;
    setSession(undefined);
    signingOut.current = false;
    setReason(undefined);
    // The sign-in page goes back to the browser's language (docs/i18n.md#choosing-the-language).
    forgetLanguage();
  };

  const state: AuthState = !session
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
