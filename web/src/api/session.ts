/**
 * The browser's one signed-in session, shared by every tab (docs/sessions.md). Its refresh token
 * is in an HttpOnly cookie that scripts cannot read; this module keeps only the access token, in
 * memory (never in storage), and tells the other tabs of the same origin when it changes
 * (BroadcastChannel): a sign-in in one tab signs in the others, a sign-out signs them all out.
 * A tab that opens asks the server for an access token with the cookie (api/client.ts
 * restoreSession) and is "restoring" until it has the answer.
 */

export interface StoredSession {
  accessToken: string;
  expiresAt: string;
  refreshExpiresAt: string;
  sessionId: string;
  userId: string;
}

/** What ended or changed the session, for the listeners. */
export interface SessionChange {
  /** Another tab of this browser made the change. */
  fromOtherTab: boolean;
  /** The session ended by a sign-out (here or in another tab), not by itself. */
  signedOut: boolean;
}

type Listener = (session: StoredSession | undefined, change: SessionChange) => void;
type Message = { type: 'session'; session: StoredSession } | { type: 'ended'; signedOut: boolean };

const CHANNEL = 'deskbook.session';
const listeners = new Set<Listener>();

let current: StoredSession | undefined;
let restoring = true;
/** Changes with every change of the session or of `restoring`, for useSyncExternalStore. */
let snapshot = { session: current, restoring };

// Typed here rather than through the DOM library, so that unit tests can load this module in Node
// (which has BroadcastChannel as well: the tests play the other tabs with it).
interface Channel {
  postMessage(message: Message): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
type ChannelConstructor = new (name: string) => Channel;

function openChannel(): Channel | undefined {
  try {
    const BroadcastChannel = (globalThis as unknown as { BroadcastChannel?: ChannelConstructor }).BroadcastChannel;
    if (typeof BroadcastChannel !== 'function') return undefined;
    const channel = new BroadcastChannel(CHANNEL);
    // In Node (the unit tests) the channel must not keep the process alive.
    (channel as { unref?: () => void }).unref?.();
    return channel;
  } catch {
    return undefined;
  }
}
const channel = openChannel();

const isSession = (value: unknown): value is StoredSession =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as StoredSession).accessToken === 'string' &&
  typeof (value as StoredSession).expiresAt === 'string' &&
  typeof (value as StoredSession).sessionId === 'string';

function apply(session: StoredSession | undefined, change: SessionChange): void {
  current = session;
  restoring = false;
  snapshot = { session, restoring };
  for (const listener of listeners) listener(session, change);
}

channel?.addEventListener('message', (event) => {
  const message = event.data as Message | undefined;
  if (message?.type === 'session' && isSession(message.session)) {
    // An access token of the same session is just fresher; one of another session is a sign-in.
    apply(message.session, { fromOtherTab: true, signedOut: false });
  } else if (message?.type === 'ended') {
    if (current || restoring) apply(undefined, { fromOtherTab: true, signedOut: message.signedOut === true });
  }
});

export const getSession = () => current;

/** Whether this tab is still asking the server for the session of the browser's cookie. */
export const isRestoring = () => restoring;

/** The session and whether it is being restored, as one value that changes identity on every change. */
export const getSessionSnapshot = () => snapshot;

/**
 * Sets (or ends) the session in this tab and in every other tab of the browser. `signedOut`: it
 * ends because the person signed out, not because the server refused it.
 */
export function setSession(session: StoredSession | undefined, options: { signedOut?: boolean; tell?: boolean } = {}): void {
  const signedOut = options.signedOut === true;
  apply(session, { fromOtherTab: false, signedOut });
  if (options.tell === false) return;
  try {
    channel?.postMessage(session ? ({ type: 'session', session } satisfies Message) : ({ type: 'ended', signedOut } satisfies Message));
  } catch {
    // A closed channel: the other tabs learn it at their next request.
  }
}

/** The restore found no session (no cookie, or one the server refused): signed out, quietly, here only. */
export function endRestoring(): void {
  if (restoring) apply(undefined, { fromOtherTab: false, signedOut: true });
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
