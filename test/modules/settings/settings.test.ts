import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';
import { insertDeskInNewRoom } from '../../helpers/fixtures.js';

/** GET /api/settings: the limits a client needs before it sends anything (docs/api.md#limits). */

const SETTINGS_KEYS = [
  'imageMaxBytes',
  'imageMaxPixels',
  'imageTypes',
  'mailConfigured',
  'passwordChangeAfterAdminSet',
  'publicUrl',
  'publicUrlIsLocal',
  'reservationHorizonSeconds',
  'reservationMaxLengthSeconds',
];

describe('GET /api/settings', () => {
  describe('with the default configuration', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('answers the published limits without a token, cacheable for a while', async () => {
      const response = await t.request({ method: 'GET', url: '/api/settings' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      const body = response.json<Record<string, unknown>>();
      expect(Object.keys(body).sort()).toEqual(SETTINGS_KEYS);
      expect(body).toEqual({
        imageMaxBytes: 5 * 1024 * 1024,
        imageMaxPixels: 40_000_000,
        imageTypes: ['image/png', 'image/jpeg', 'image/webp'],
        reservationMaxLengthSeconds: 24 * 3600,
        reservationHorizonSeconds: 90 * 86_400,
        // The suite turns it off (test/helpers/test-env.ts); the service's default is on (test/config.test.ts).
        passwordChangeAfterAdminSet: false,
        // No SMTP_URL and no PUBLIC_URL: nothing is mailed, and codes point at this machine (docs/configuration.md#mail, #public-url).
        mailConfigured: false,
        publicUrl: 'http://localhost:8080',
        publicUrlIsLocal: true,
      });
    });

    it('answers the same to a signed-in caller, and ignores a bad token', async () => {
      const anonymous = await t.request({ method: 'GET', url: '/api/settings' });
      const admin = await t.request({ method: 'GET', url: '/api/settings', token: await t.adminToken() });
      const garbage = await t.request({ method: 'GET', url: '/api/settings', token: 'garbage' });
      expect(admin.statusCode).toBe(200);
      expect(garbage.statusCode).toBe(200);
      expect(admin.json()).toEqual(anonymous.json());
      expect(garbage.json()).toEqual(anonymous.json());
    });

    it('publishes the limits the service enforces on a USER: exactly the length and horizon are booked, one second more is refused', async () => {
      const settings = (await t.request({ method: 'GET', url: '/api/settings' })).json<{
        reservationMaxLengthSeconds: number;
        reservationHorizonSeconds: number;
      }>();
      const place = await insertDeskInNewRoom(t.database.handle.db);
      const user = await t.createUser({ email: 'limits@example.test', password: 'limits-password-1' });
      const token = (await t.login(user.email, 'limits-password-1')).accessToken;
      const book = (start: number, lengthSeconds: number) =>
        t.request({
          method: 'POST',
          url: '/api/reservation',
          token,
          payload: { deskId: place.desk.id, startTime: new Date(start).toISOString(), endTime: new Date(start + lengthSeconds * 1000).toISOString() },
        });
      const tomorrow = t.clock.now().getTime() + 86_400_000;
      expect(expectProblem(await book(tomorrow, settings.reservationMaxLengthSeconds + 1), 400, 'RESERVATION_NOT_ALLOWED').errors?.[0]?.field).toBe('endTime');
      expect((await book(tomorrow, settings.reservationMaxLengthSeconds)).statusCode).toBe(200);
      const horizon = t.clock.now().getTime() + settings.reservationHorizonSeconds * 1000;
      expect(expectProblem(await book(horizon + 1000, 3600), 400, 'RESERVATION_NOT_ALLOWED').errors?.[0]?.field).toBe('startTime');
      expect((await book(horizon, 3600)).statusCode).toBe(200);
    });
  });

  describe('follows the configuration', () => {
    let t: TestApp;
    const lines: string[] = [];
    beforeAll(async () => {
      t = await createTestApp({
        env: {
          IMAGE_MAX_BYTES: '123456',
          IMAGE_MAX_PIXELS: '1000000',
          RESERVATION_MAX_LENGTH: '90m',
          RESERVATION_HORIZON: '14d',
          PASSWORD_CHANGE_AFTER_ADMIN_SET: 'true',
          SMTP_URL: 'smtp://127.0.0.1:9',
          PUBLIC_URL: 'https://desks.example.test',
        },
        logLines: (line) => lines.push(line),
      });
    });
    afterAll(() => t.close());

    it('answers the configured values', async () => {
      const response = await t.request({ method: 'GET', url: '/api/settings' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        imageMaxBytes: 123_456,
        imageMaxPixels: 1_000_000,
        imageTypes: ['image/png', 'image/jpeg', 'image/webp'],
        reservationMaxLengthSeconds: 90 * 60,
        reservationHorizonSeconds: 14 * 86_400,
        passwordChangeAfterAdminSet: true,
        mailConfigured: true,
        publicUrl: 'https://desks.example.test',
        publicUrlIsLocal: false,
      });
    });

    it('logs no PUBLIC_URL warning when it names another machine', () => {
      expect(lines.some((line) => line.includes('PUBLIC_URL is'))).toBe(false);
    });
  });

  describe('without PUBLIC_URL', () => {
    it('logs one warning at start naming the setting (docs/configuration.md#public-url)', async () => {
      const lines: string[] = [];
      const t = await createTestApp({ logLines: (line) => lines.push(line) });
      try {
        const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.msg.includes('PUBLIC_URL is'));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]!.level).toBe(40);
        expect(warnings[0]!.msg).toContain('http://localhost:8080');
      } finally {
        await t.close();
      }
    });
  });
});
