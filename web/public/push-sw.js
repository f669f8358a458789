/*
 * Deskbook's push service worker (docs/notifications.md#the-web-app): shows a push as a
 * notification and opens the app on click. Deliberately small and only about push. When the app
 * gets its full service worker (an installable PWA built with vite-plugin-pwa), these two
 * listeners move into that worker (importScripts('/push-sw.js') from it, or its injectManifest
 * source) and the profile page registers that worker instead: one scope has one service pushWorker.
 *
 * A push's payload is JSON: { title, body, url, tag, event } (docs/notifications.md#what-a-push-says).
 */

// The worker's global scope (self), named through globalThis so that linting needs no worker globals.
const pushWorker = globalThis;

pushWorker.addEventListener('install', () => pushWorker.skipWaiting());
pushWorker.addEventListener('activate', (event) => event.waitUntil(pushWorker.clients.claim()));

pushWorker.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : '' };
  }
  const url = typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/';
  event.waitUntil(
    pushWorker.registration.showNotification(message.title || 'Deskbook', {
      body: message.body || '',
      tag: message.tag || undefined,
      renotify: Boolean(message.tag),
      data: { url },
    }),
  );
});

pushWorker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', pushWorker.location.origin).href;
  event.waitUntil(
    pushWorker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === pushWorker.location.origin);
      if (open) return open.focus().then((client) => (client && 'navigate' in client ? client.navigate(target) : client));
      return pushWorker.clients.openWindow(target);
    }),
  );
});
