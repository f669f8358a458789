import { api } from '../../api/client.js';
import { translate } from '../../lib/translate.js';
import { WORKER_URL } from '../../pwa/worker-rules.js';

/**
 * The browser's side of push (docs/notifications.md#the-web-app): whether it can, the permission,
 * the app's one service worker (web/src/sw.ts, docs/pwa.md#the-one-worker) and its push subscription.
 */

/** The worker that shows pushes: the app's one worker, which also keeps the app for offline use. */
export const PUSH_WORKER = WORKER_URL;

export type PushSupport = 'supported' | 'unsupported' | 'denied';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return Notification.permission === 'denied' ? 'denied' : 'supported';
}

/** This browser's push subscription, if it has one (no worker registered: none). */
export async function browserSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() === 'unsupported') return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** base64url (the server's key) to bytes (applicationServerKey). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export class PushRefused extends Error {}

/** How long the browser's push service may take to subscribe (one that cannot be reached never answers). */
const SUBSCRIBE_TIMEOUT_MS = 15_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new PushRefused(translate('profile:notifications.serviceSilent'))), SUBSCRIBE_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Asks the permission, registers the worker and subscribes with the server's key; answers the
 * subscription as the server takes it (PushSubscription.toJSON()).
 */
export async function subscribeBrowser(publicKey: string): Promise<{ endpoint: string; keys: { p256dh: string; auth: string } }> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushRefused(translate('profile:notifications.notAllowed'));
  await navigator.serviceWorker.register(PUSH_WORKER, { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ?? (await withTimeout(registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) })));
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new PushRefused(translate('profile:notifications.noSubscription'));
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

/** Ends this browser's push subscription (the server's row is deleted by the caller). */
export async function unsubscribeBrowser(): Promise<void> {
  await (await browserSubscription())?.unsubscribe();
}

/** How long signing out waits for push to be turned off in this browser. */
const FORGET_TIMEOUT_MS = 3000;

/**
 * Turns push off in this browser before its person signs out (docs/notifications.md#threat-model:
 * the next person at a shared computer gets none of their pushes): deletes the server's row of this
 * browser's endpoint and ends the browser's subscription. Bounded in time, and never fails: signing
 * out goes on whatever happens here.
 */
export async function forgetThisBrowser(): Promise<void> {
  const work = (async () => {
    const subscription = await browserSubscription();
    if (!subscription) return;
    const { data } = await api.GET('/api/self/push-subscriptions');
    const mine = data?.find((entry) => entry.endpoint === subscription.endpoint);
    if (mine) await api.DELETE('/api/self/push-subscriptions/{id}', { params: { path: { id: mine.id } } });
    await subscription.unsubscribe();
  })();
  await Promise.race([work.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, FORGET_TIMEOUT_MS))]);
}
