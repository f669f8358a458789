import { createECDH, randomBytes } from 'node:crypto';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { loadConfig, pushSubject } from '../../../src/config.js';
import { endpointPolicy, endpointRefusal } from '../../../src/modules/notifications/notifications.push.js';
import { decryptPush, verifyVapid } from '../../helpers/push-service.js';

/**
 * What a subscription may point at (docs/notifications.md#threat-model), the VAPID subject's
 * default (docs/notifications.md#configuration), and the test push service's own checks: its
 * decryption and JWT check accept what web-push makes and refuse what they should.
 */

const DEFAULT_HOSTS = loadConfig({}).PUSH_ENDPOINT_HOSTS;

describe('push endpoints', () => {
  const policy = endpointPolicy(DEFAULT_HOSTS, false);

  it('admits https on the default port of the known push services only', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx',
      'https://db5p.notify.windows.com/w/?token=x',
      'https://FCM.googleapis.com:443/x',
    ])
      expect(endpointRefusal(endpoint, policy), endpoint).toBeUndefined();
    const refused = {
      'http://fcm.googleapis.com/x': 'must be https',
      'https://fcm.googleapis.com:8443/x': 'must use the default https port',
      'https://a:b@fcm.googleapis.com/x': 'must not carry credentials',
      'https://evil.example/x': 'PUSH_ENDPOINT_HOSTS',
      'https://fcm.googleapis.com.evil.example/x': 'PUSH_ENDPOINT_HOSTS',
      'https://evilpush.apple.com/x': 'PUSH_ENDPOINT_HOSTS',
      'https://push.apple.com/x': 'PUSH_ENDPOINT_HOSTS',
      'https://127.0.0.1/x': 'PUSH_ENDPOINT_HOSTS',
      'http://127.0.0.1:9000/x': 'must be https',
      'https://[::1]/x': 'PUSH_ENDPOINT_HOSTS',
      'https://169.254.169.254/latest': 'PUSH_ENDPOINT_HOSTS',
      'file:///etc/passwd': 'must be https',
      'not a url': 'is not a URL',
    };
    for (const [endpoint, reason] of Object.entries(refused)) expect(endpointRefusal(endpoint, policy), endpoint).toContain(reason);
  });

  it('admits this machine, any port, only with PUSH_ALLOW_LOOPBACK', () => {
    const loopback = endpointPolicy(DEFAULT_HOSTS, true);
    expect(endpointRefusal('http://127.0.0.1:9000/push/1', loopback)).toBeUndefined();
    expect(endpointRefusal('http://localhost:9000/push/1', loopback)).toBeUndefined();
    expect(endpointRefusal('http://10.0.0.1:9000/push/1', loopback)).toBe('must be https');
    expect(endpointRefusal('ftp://127.0.0.1/push/1', loopback)).toBe('must be https');
  });

  it('takes the VAPID subject from PUSH_SUBJECT, else an https PUBLIC_URL, else MAIL_FROM', () => {
    const base = { PUSH_SUBJECT: undefined, MAIL_FROM: 'Deskbook <desks@example.test>' };
    expect(pushSubject({ ...base, PUSH_SUBJECT: 'mailto:ops@example.test', PUBLIC_URL: 'https://desks.example.test' })).toBe('mailto:ops@example.test');
    expect(pushSubject({ ...base, PUBLIC_URL: 'https://desks.example.test/app/' })).toBe('https://desks.example.test');
    expect(pushSubject({ ...base, PUBLIC_URL: 'http://desks.example.test' })).toBe('mailto:desks@example.test');
    expect(pushSubject({ ...base, PUBLIC_URL: 'https://localhost:8443' })).toBe('mailto:desks@example.test');
    expect(pushSubject({ ...base, MAIL_FROM: 'plain@example.test', PUBLIC_URL: 'http://localhost:8080' })).toBe('mailto:plain@example.test');
    expect(() => loadConfig({ PUSH_SUBJECT: 'http://desks.example.test' })).toThrow(/PUSH_SUBJECT/);
  });

  it('the test push service decrypts what web-push encrypts for the browser, and only with its keys', () => {
    const browser = createECDH('prime256v1');
    const publicKey = browser.generateKeys();
    const auth = randomBytes(16);
    const keys = webpush.generateVAPIDKeys();
    const details = webpush.generateRequestDetails(
      { endpoint: 'https://fcm.googleapis.com/x', keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
      '{"title":"Hi"}',
      { vapidDetails: { subject: 'mailto:a@example.test', ...keys }, contentEncoding: 'aes128gcm' },
    );
    const body = details.body as Buffer;
    expect(decryptPush(body, { privateKey: browser.getPrivateKey(), publicKey }, auth).toString()).toBe('{"title":"Hi"}');
    expect(() => decryptPush(body, { privateKey: browser.getPrivateKey(), publicKey }, randomBytes(16))).toThrow();
    const [, jwt, k] = /^vapid t=([\w.-]+), k=([\w-]+)$/.exec(details.headers.Authorization as string)!;
    expect(k).toBe(keys.publicKey);
    expect(verifyVapid(jwt!, k!)).toMatchObject({ aud: 'https://fcm.googleapis.com', sub: 'mailto:a@example.test' });
    expect(() => verifyVapid(jwt!, webpush.generateVAPIDKeys().publicKey)).toThrow(/does not verify/);
  });
});
