import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TokenPairBody, type UserBody } from '../helpers/app.js';
import { solidImage } from '../helpers/images.js';

/**
 * Headers on API answers (docs/behaviour.md, HTTP): every answer under /api, errors and 404s
 * included, carries X-Content-Type-Options: nosniff; answers holding tokens or people's data are
 * Cache-Control: no-store, so no browser or proxy cache keeps them.
 */

describe('headers on API answers', () => {
  let t: TestApp;
  let admin: string;
  let user: UserBody;
  let pair: TokenPairBody;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    user = await t.createUser({ email: 'headers.user@example.test', password: 'headers-password-1' });
    pair = await t.login(user.email, 'headers-password-1');
  });
  afterAll(() => t.close());

  const expectNoSniff = (response: LightMyRequestResponse, what: string) => expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  const expectNoStore = (response: LightMyRequestResponse, what: string) => expect(response.headers['cache-control'], what).toBe('no-store');

  it('sends nosniff and no-store on token answers', async () => {
    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'headers-password-1' } });
    expect(login.statusCode).toBe(200);
    const refresh = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: login.json<TokenPairBody>().refreshToken } });
    expect(refresh.statusCode).toBe(200);
    const wrong = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'wrong-password-9' } });
    expect(wrong.statusCode).toBe(401);
    for (const [what, response] of Object.entries({ login, refresh, wrong })) {
      expectNoSniff(response, what);
      expectNoStore(response, what);
    }
  });

  it('sends nosniff and no-store on user and session answers, for admins and users alike', async () => {
    const requests: [string, string][] = [
      ['/api/self', pair.accessToken],
      ['/api/users', admin],
      [`/api/users/${user.id}`, pair.accessToken],
      ['/api/sessions', pair.accessToken],
      [`/api/users/${user.id}/sessions`, admin],
    ];
    for (const [url, token] of requests) {
      const response = await t.request({ method: 'GET', url, token });
      expect(response.statusCode, url).toBe(200);
      expectNoSniff(response, url);
      expectNoStore(response, url);
    }
    const changed = await t.request({ method: 'PUT', url: '/api/self', token: pair.accessToken, payload: { firstName: 'Headers', lastName: 'User' } });
    expect(changed.statusCode).toBe(200);
    expectNoStore(changed, 'PUT /api/self');
  });

  it('sends nosniff on every other API answer, errors, 404s and malformed URLs included', async () => {
    const responses = {
      health: await t.request({ method: 'GET', url: '/api/health' }),
      ready: await t.request({ method: 'GET', url: '/api/health/ready' }),
      reservations: await t.request({ method: 'GET', url: '/api/reservation', token: admin }),
      unauthenticated: await t.request({ method: 'GET', url: '/api/self' }),
      forbidden: await t.request({ method: 'GET', url: '/api/users/00000000-0000-4000-8000-000000000000/sessions', token: pair.accessToken }),
      noRoute: await t.request({ method: 'GET', url: '/api/no-such-thing' }),
      noMethod: await t.request({ method: 'PATCH', url: '/api/self', token: admin }),
      malformedJson: await t.request({ method: 'POST', url: '/api/users', token: admin, payload: '{"x":', headers: { 'content-type': 'application/json' } }),
      badUrl: await t.request({ method: 'GET', url: '/api/users/%E0%A4%A', token: admin }),
      openapi: await t.request({ method: 'GET', url: '/api/openapi.json' }),
    };
    for (const [what, response] of Object.entries(responses)) {
      expectNoSniff(response, what);
      if (what !== 'openapi') expectNoStore(response, what);
    }
    expect(responses.badUrl.statusCode).toBe(400);
    expect(responses.noRoute.statusCode).toBe(404);
  });

  it('leaves an image its own Cache-Control (private, revalidated with its ETag)', async () => {
    const url = `/api/users/${user.id}/avatar`;
    const put = await t.request({
      method: 'PUT',
      url,
      token: pair.accessToken,
      payload: await solidImage('png', 64, 64),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.statusCode, put.body).toBeLessThan(300);
    const image = await t.request({ method: 'GET', url, token: pair.accessToken });
    expect(image.statusCode).toBe(200);
    expect(image.headers['cache-control']).toBe('private, no-cache');
    expectNoSniff(image, 'avatar');
  });
});
