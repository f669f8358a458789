import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, call, publicApi } from './api/client.js';
import { getSession, onSessionChange, setSession } from './api/session.js';
import type { User } from './api/types.js';

type AuthState =
  | { status: 'checking' }
  | { status: 'signed-out'; reason?: string }
  | { status: 'signed-in'; user: User; sessionId: string };

interface Auth {
  state: AuthState;
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  /** Replaces the signed-in user (after a change of name or avatar). */
  setUser(user: User): void;
}

const AuthContext = createContext<Auth | undefined>(undefined);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(getSession() ? { status: 'checking' } : { status: 'signed-out' });

  // A session that ends by itself (refresh refused, revoked elsewhere) sends the person to sign-in.
  useEffect(
    () =>
      onSessionChange((session) => {
        if (!session) setState((previous) => (previous.status === 'signed-out' ? previous : { status: 'signed-out', reason: 'Your session has ended. Please sign in again.' }));
      }),
    [],
  );

  useEffect(() => {
    const session = getSession();
    if (!session || state.status !== 'checking') return;
    call(api.GET('/api/self'))
      .then((user) => setState({ status: 'signed-in', user, sessionId: session.sessionId }))
      .catch(() => setState({ status: 'signed-out' }));
  }, [state.status]);

  const signIn = useCallback(async (email: string, password: string) => {
    const pair = await call(publicApi.POST('/api/auth/login', { body: { email: email.trim(), password } }));
    setSession({
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      expiresAt: pair.expiresAt,
      refreshExpiresAt: pair.refreshExpiresAt,
      sessionId: pair.sessionId,
      userId: pair.userId,
    });
    const user = await call(api.GET('/api/self'));
    setState({ status: 'signed-in', user, sessionId: pair.sessionId });
  }, []);

  const signOut = useCallback(async () => {
    // The session is revoked on the server when it can be reached; it is forgotten here in any case.
    await call(api.POST('/api/auth/logout')).catch(() => undefined);
    setState({ status: 'signed-out' });
    setSession(undefined);
  }, []);

  const setUser = useCallback((user: User) => setState((previous) => (previous.status === 'signed-in' ? { ...previous, user } : previous)), []);

  const value = useMemo(() => ({ state, signIn, signOut, setUser }), [state, signIn, signOut, setUser]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
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
