/**
 * The signed-in session's tokens, kept in sessionStorage: they survive a reload of the tab but
 * not its closing, are not shared between tabs (each tab is its own session, so two tabs never
 * race to rotate one refresh token), and are never sent automatically like a cookie would be.
 */

export interface StoredSession {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  refreshExpiresAt: string;
  sessionId: string;
  userId: string;
}

const KEY = 'deskbook.session';

// Typed here rather than through the DOM library, so that unit tests can load this module in Node
// (where there is no sessionStorage and the session lives in memory only).
interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
function sessionStore(): KeyValueStore | undefined {
  try {
    return (globalThis as { sessionStorage?: KeyValueStore }).sessionStorage;
  } catch {
    // A browser that blocks storage throws on the mere access.
    return undefined;
  }
}
const store = sessionStore();

type Listener = (session: StoredSession | undefined) => void;
const listeners = new Set<Listener>();

function read(): StoredSession | undefined {
  try {
    const raw = store?.getItem(KEY);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<StoredSession>;
    return typeof parsed.accessToken === 'string' && typeof parsed.refreshToken === 'string' ? (parsed as StoredSession) : undefined;
  } catch {
    return undefined;
  }
}

let current: StoredSession | undefined = read();

export const getSession = () => current;

export function setSession(session: StoredSession | undefined): void {
  current = session;
  try {
    if (session) store?.setItem(KEY, JSON.stringify(session));
    else store?.removeItem(KEY);
  } catch {
    // Storage may be disabled (private mode): the session then lives in memory only.
  }
  for (const listener of listeners) listener(session);
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
