import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { isLoopbackUrl } from '../../config.js';
import type { Database } from '../../db/client.js';
import { DeliveryFailed, type OutboxKind } from '../../infrastructure/outbox/outbox.js';
import { NotificationsRepository, type VapidKeys } from './notifications.repository.js';
import { PUSH_KIND, type PushPayload } from './notifications.queue.js';

/** Which endpoints a subscription may name (docs/notifications.md#threat-model). */
export interface EndpointPolicy {
  /** PUSH_ENDPOINT_HOSTS: exact host names, or `.suffix` for every host below. */
  hosts: string[];
  /** PUSH_ALLOW_LOOPBACK: http(s) on this machine, any port (tests). */
  allowLoopback: boolean;
}

export const endpointPolicy = (hosts: string, allowLoopback: boolean): EndpointPolicy => ({
  hosts: hosts
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean),
  allowLoopback,
});

/**
 * Why an endpoint is refused, or undefined when it is admitted: https on the default port of a
 * push service named in PUSH_ENDPOINT_HOSTS, with no credentials in it; or, with
 * PUSH_ALLOW_LOOPBACK, http(s) on this machine. So a subscription cannot make the server send
 * requests anywhere else (docs/notifications.md#threat-model).
 */
export function endpointRefusal(endpoint: string, policy: EndpointPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'is not a URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (policy.allowLoopback && isLoopbackUrl(url) && (url.protocol === 'http:' || url.protocol === 'https:')) return undefined;
  if (url.protocol !== 'https:') return 'must be https';
  if (url.port !== '') return 'must use the default https port';
  const host = url.hostname.toLowerCase();
  const admitted = policy.hosts.some((allowed) => (allowed.startsWith('.') ? host.endsWith(allowed) && host.length > allowed.length : host === allowed));
  return admitted ? undefined : 'is not a push service this server sends to (PUSH_ENDPOINT_HOSTS)';
}

export interface PushSettings {
  keys: VapidKeys;
  /** The VAPID subject (config.ts pushSubject). */
  subject: string;
  /** PUSH_TTL, in ms. */
  ttlMs: number;
  /** PUSH_TIMEOUT. */
  timeoutMs: number;
  policy: EndpointPolicy;
}

/** Tries of one push before it is dead: 1, 2, 4, 8 minutes apart, and a reminder later than that is worth little. */
const MAX_ATTEMPTS = 5;

/**
 * Pushes as a kind of the one outbox (docs/notifications.md#delivery): each row is one push to one
 * browser. The subscription is read at sending time (one removed meanwhile: nothing is sent); the
 * payload is encrypted for it (RFC 8291, aes128gcm) and signed with the server's VAPID key
 * (RFC 8292) by `web-push`, and POSTed with fetch (RFC 8030). The push service's answer decides:
 * 2xx sent; 404 or 410 the subscription is gone and is deleted (nothing sent, no retry); 429, 5xx,
 * a timeout or a network failure are tried again by the outbox (DeliveryFailed); any other answer
 * (a 4xx the same request would get again) is logged and dropped.
 */
export function pushKind(db: Database, settings: PushSettings, log: FastifyBaseLogger): OutboxKind<PushPayload> {
  const repository = new NotificationsRepository(db);
  const vapidDetails = { subject: settings.subject, publicKey: settings.keys.publicKey, privateKey: settings.keys.privateKey };
  return {
    kind: PUSH_KIND,
    maxAttempts: MAX_ATTEMPTS,
    async deliver(rows, signal) {
      let sent = 0;
      for (const row of rows) {
        const subscription = await repository.subscription(row.payload.subscriptionId);
        if (!subscription) continue;
        if (endpointRefusal(subscription.endpoint, settings.policy)) {
          log.warn({ subscription: subscription.id }, 'push not sent: its endpoint is no longer admitted (PUSH_ENDPOINT_HOSTS)');
          continue;
        }
        const { title, body, url, tag, event } = row.payload;
        const details = webpush.generateRequestDetails(
          { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
          JSON.stringify({ title, body, url, tag, event }),
          { vapidDetails, TTL: Math.round(settings.ttlMs / 1000), contentEncoding: 'aes128gcm', urgency: event === 'check-in-open' ? 'high' : 'normal' },
        );
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
        let status: number;
        try {
          const response = await fetch(details.endpoint, {
            method: details.method,
            headers,
            body: details.body ?? undefined,
            redirect: 'manual',
            signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
          });
          status = response.status;
          await response.body?.cancel();
        } catch (error) {
          throw new DeliveryFailed(`the push service did not answer (${(error as Error).name})`, sent);
        }
        if (status >= 200 && status < 300) {
          sent++;
        } else if (status === 404 || status === 410) {
          await repository.forget(subscription.id, subscription.endpoint);
          log.info({ subscription: subscription.id, status }, 'push subscription gone: removed');
        } else if (status === 429 || status >= 500) {
          throw new DeliveryFailed(`the push service answered ${status}`, sent);
        } else {
          log.warn({ subscription: subscription.id, status }, 'push refused by the push service: dropped');
        }
      }
      return sent;
    },
  };
}
