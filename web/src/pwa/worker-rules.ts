/**
 * What the one service worker and the page agree on (docs/pwa.md): kept free of browser APIs so
 * that unit tests can load it.
 */

/** Navigations to these paths never get the cached app shell: the API answers for itself, or fails. */
export const OFFLINE_FALLBACK_DENYLIST = [/^\/api(\/|$)/, /^\/(sw|push-sw)\.js$/, /^\/manifest\.webmanifest$/];

/** The message with which the page lets a waiting worker take over (workbox-window's messageSkipWaiting sends it). */
export const SKIP_WAITING = 'SKIP_WAITING';

/** The worker's address; the server serves it revalidated on every load (src/plugins/web.ts). */
export const WORKER_URL = '/sw.js';
