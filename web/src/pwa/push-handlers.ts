import type { WorkerScope } from './worker-types.js';

/**
 * Push in the one service worker (docs/notifications.md#the-web-app, docs/pwa.md#the-one-worker):
 * shows a push as a notification and opens the app on click. A push's payload is JSON:
 * { title, body, url, tag, event } (docs/notifications.md#what-a-push-says).
 */
export function handlePushes(worker: WorkerScope): void {
  worker.addEventListener('push', (event) => {
    let message: { title?: unknown; body?: unknown; url?: unknown; tag?: unknown };
    try {
      message = (event.data ? event.data.json() : {}) as typeof message;
    } catch {
      message = { body: event.data ? event.data.text() : '' };
    }
    const url = typeof message.url === 'string' && message.url.startsWith('/') ? message.url : '/';
    const tag = typeof message.tag === 'string' && message.tag ? message.tag : undefined;
    event.waitUntil(
      worker.registration.showNotification(typeof message.title === 'string' && message.title ? message.title : 'Deskbook', {
        body: typeof message.body === 'string' ? message.body : '',
        tag,
        renotify: Boolean(tag),
        data: { url },
      }),
    );
  });

  worker.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const target = new URL(event.notification.data?.url || '/', worker.location.origin).href;
    event.waitUntil(
      worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
        const open = windows.find((client) => new URL(client.url).origin === worker.location.origin);
        if (open) return open.focus().then((client) => (client && client.navigate ? client.navigate(target) : client));
        return worker.clients.openWindow(target);
      }),
    );
  });
}
