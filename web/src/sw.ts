import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { handlePushes } from './pwa/push-handlers.js';
import { OFFLINE_FALLBACK_DENYLIST, SKIP_WAITING } from './pwa/worker-rules.js';
import type { WorkerScope } from './pwa/worker-types.js';

/**
 * Deskbook's one service worker, at scope / (docs/pwa.md#the-one-worker), built by vite-plugin-pwa
 * (injectManifest) into dist/web/sw.js:
 * - precaches the app shell, the files of the build (docs/pwa.md#what-is-cached);
 * - answers navigations with the cached index.html when the network does not, never a request
 *   under /api/ (the API is never cached by the worker);
 * - waits after an update until the page asks it to take over (the "new version" prompt,
 *   docs/pwa.md#updates);
 * - shows pushes and opens their links (docs/notifications.md#the-web-app).
 */

declare const self: WorkerScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: OFFLINE_FALLBACK_DENYLIST }));

// The first worker of a browser controls the open pages at once; a later one waits for the prompt.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === SKIP_WAITING) void self.skipWaiting();
});

handlePushes(self);
