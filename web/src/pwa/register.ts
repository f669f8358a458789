import { WORKER_URL } from './worker-rules.js';

/**
 * Registers the one service worker (docs/pwa.md#the-one-worker) once the page has loaded, with
 * workbox-window loaded only then (docs/pwa.md#cost: nothing of it in the first load), and tells
 * the update prompt when a new version waits (docs/pwa.md#updates). Not in development (`npm run
 * dev:web` builds no worker).
 */

type Listener = () => void;
const listeners = new Set<Listener>();
/** Lets the waiting worker take over and reloads the page once it controls it; undefined while none waits. */
let update: (() => void) | undefined;

export const waitingUpdate = () => update;
export function onWaitingUpdate(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announce(next: (() => void) | undefined) {
  update = next;
  for (const listener of listeners) listener();
}

async function register(): Promise<void> {
  const { Workbox } = await import('workbox-window');
  const workbox = new Workbox(WORKER_URL, { scope: '/' });
  workbox.addEventListener('waiting', () =>
    announce(() => {
      // The page reloads when the new worker has taken over, so it runs the new version's files.
      workbox.addEventListener('controlling', () => window.location.reload());
      workbox.messageSkipWaiting();
    }),
  );
  await workbox.register();
}

export function registerWorkerAfterLoad(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const start = () => void register().catch((error: unknown) => console.warn('The service worker could not be registered', error));
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
