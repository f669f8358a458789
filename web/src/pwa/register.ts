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

/** Runs `work` once the page has loaded and the browser is idle (soon, where it cannot tell). */
function whenIdle(work: () => void): void {
  const idle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(() => work(), { timeout: 2000 }) : setTimeout(work, 200));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** After load, when idle: `first` (what else can wait until then), then the service worker's registration. */
export function registerWorkerWhenIdle(first?: () => void): void {
  whenIdle(() => {
    first?.();
    if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    void register().catch((error: unknown) => console.warn('The service worker could not be registered', error));
  });
}
