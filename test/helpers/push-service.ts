import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service for tests (docs/notifications.md#tests): the receiving side of RFC 8030 on
 * 127.0.0.1, which checks each push as a real one would before accepting it and decrypts it with
 * the subscribing browser's private keys, so a test asserts what the browser would show.
 *
 * - VAPID (RFC 8292): `Authorization: vapid t=<JWT>, k=<public key>`; the JWT is ES256, signed
 *   with the key `k` names (which must be the server's), its `aud` the endpoint's origin, its `exp`
 *   in the future and at most 24 hours away, its `sub` a mailto: or https: contact.
 * - The body (RFC 8291, aes128gcm, RFC 8188): decrypted with the browser's ECDH key and auth secret
 *   (one record; its padding delimiter checked).
 * - Each browser answers from a script of statuses (201 once the script is used up); 410 makes it gone.
 */

export interface TestBrowser {
  id: string;
  /** What the web app POSTs to /api/self/push-subscriptions (PushSubscription.toJSON()). */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Statuses to answer next, in order (then 201). */
  script: number[];
}

export interface ReceivedPush {
  browserId: string;
  /** The decrypted payload, parsed. */
  message: Record<string, unknown>;
  /** The status this push service answered. */
  status: number;
  ttl: string | undefined;
  urgency: string | undefined;
  jwt: { aud: string; exp: number; sub: string };
}

export interface TestPushService {
  origin: string;
  /** A browser with fresh keys (P-256 key pair, 16-byte auth secret) and its endpoint here. */
  browser(): TestBrowser;
  /** Every push that arrived, in order, whatever was answered (accepted ones have status 201). */
  received: ReceivedPush[];
  /** Pushes that were refused because a check failed (the test then fails on them). */
  refused: string[];
  /** The VAPID public key pushes must be signed with (the server's, from GET /api/push/key). */
  expectKey(publicKey: string): void;
  stop(): Promise<void>;
}

/** Decrypts an aes128gcm push body (RFC 8291 §3.4, RFC 8188 §2) for the browser holding `ecdhPrivate` and `authSecret`. */
export function decryptPush(body: Buffer, browserKeys: { privateKey: Buffer; publicKey: Buffer }, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(browserKeys.privateKey);
  const shared = ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserKeys.publicKey, serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record lacks its padding delimiter 0x02');
  return padded.subarray(0, end);
}

/** Checks a VAPID JWT (ES256) against the uncompressed P-256 public key `k`; answers its claims. */
export function verifyVapid(jwt: string, k: string): { aud: string; exp: number; sub: string } {
  const [head, claims, signature] = jwt.split('.');
  if (!head || !claims || !signature) throw new Error('the JWT has not three parts');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg: string; typ?: string };
  if (header.alg !== 'ES256') throw new Error(`the JWT is ${header.alg}, not ES256`);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('the JWT signature does not verify with k');
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
}

const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

export async function startPushService(): Promise<TestPushService> {
  const browsers = new Map<string, TestBrowser & { keys: { privateKey: Buffer; publicKey: Buffer }; auth: Buffer }>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  let expectedKey: string | undefined;
  let origin = '';

  const check = async (request: IncomingMessage): Promise<{ status: number; push?: ReceivedPush; problem?: string }> => {
    const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1];
    const browser = id === undefined ? undefined : browsers.get(id);
    const body = await readBody(request);
    if (request.method !== 'POST' || !browser) return { status: 404, problem: `no subscription at ${request.url}` };
    const auth = /^vapid t=([\w.-]+), ?k=([\w-]+)$/.exec(request.headers.authorization ?? '');
    if (!auth) return { status: 401, problem: `no VAPID authorization: ${request.headers.authorization}` };
    const [, jwt, k] = auth;
    if (expectedKey !== undefined && k !== expectedKey) return { status: 403, problem: 'signed with another key than the server publishes' };
    let claims: { aud: string; exp: number; sub: string };
    try {
      claims = verifyVapid(jwt!, k!);
    } catch (error) {
      return { status: 403, problem: (error as Error).message };
    }
    const now = Date.now() / 1000;
    if (claims.aud !== origin) return { status: 403, problem: `aud ${claims.aud} is not ${origin}` };
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) return { status: 403, problem: `exp ${claims.exp} is not within 24 hours` };
    if (!/^(mailto:|https:)/.test(claims.sub)) return { status: 403, problem: `sub ${claims.sub}` };
    if (request.headers['content-encoding'] !== 'aes128gcm') return { status: 415, problem: `content-encoding ${request.headers['content-encoding']}` };
    if (request.headers.ttl === undefined) return { status: 400, problem: 'no TTL' };
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(decryptPush(body, browser.keys, browser.auth).toString('utf8')) as Record<string, unknown>;
    } catch (error) {
      return { status: 400, problem: `cannot decrypt: ${(error as Error).message}` };
    }
    const status = browser.script.shift() ?? 201;
    return {
      status,
      push: { browserId: browser.id, message, status, ttl: request.headers.ttl as string, urgency: request.headers.urgency as string | undefined, jwt: claims },
    };
  };

  const server: Server = createServer((request, response) => {
    check(request).then(
      ({ status, push, problem }) => {
        if (problem) refused.push(problem);
        if (push) received.push(push);
        response.writeHead(status, push && status === 201 ? { location: `${origin}/message/${randomUUID()}` } : {}).end();
      },
      (error: unknown) => {
        refused.push(String(error));
        response.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    refused,
    browser() {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomUUID();
      const browser = {
        id,
        subscription: { endpoint: `${origin}/push/${id}`, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
        script: [] as number[],
        keys: { privateKey: ecdh.getPrivateKey(), publicKey },
        auth,
      };
      browsers.set(id, browser);
      return browser;
    },
    expectKey(publicKey) {
      expectedKey = publicKey;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
