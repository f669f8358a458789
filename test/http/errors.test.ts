import { SignJWT, UnsecuredJWT, decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UUID, createTestApp, expectProblem, type TestApp, type TokenPairBody, type UserBody } from '../helpers/app.js';

/** The HTTP layer: problem+json for every error, request ids, body handling, hostile input (docs/behaviour.md#errors, docs/behaviour.md#limits). */

const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'instance', 'code', 'requestId'];
/** What must never reach a client: stack frames, module paths, SQL, raw error messages. */
const LEAKS =
  /\bat .+:\d+:\d+|node_modules|\/work\/|\.ts:\d+|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate\b.+\bset\b|\bdelete from\b|Error:|"stack"|postgres|drizzle|syntax error at/i;

/** Every property of RFC 9457 problem+json this service promises, for any status. */
function expectWellFormedProblem(response: LightMyRequestResponse, status: number, path: string, code?: string): Record<string, unknown> {
  const body = expectProblem(response, status, code);
  expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
  for (const member of PROBLEM_MEMBERS) expect(body, `problem lacks ${member}`).toHaveProperty(member);
  expect(typeof body.type).toBe('string');
  expect(String(body.type)).toMatch(/^urn:deskbook:problem:[a-z-]+$/);
  expect(body.type).toBe(`urn:deskbook:problem:${String(body.code).toLowerCase().replaceAll('_', '-')}`);
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(String(body.detail).length).toBeGreaterThan(0);
  expect(body.instance).toBe(path);
  expect(body.requestId).toBe(response.headers['x-request-id']);
  expect(response.body).not.toMatch(LEAKS);
  return body;
}

describe('HTTP layer', () => {
  let t: TestApp;
  let admin: string;
  let user: UserBody;
  let userPair: TokenPairBody;
  const password = 'errors-password-1';

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    admin = await t.adminToken();
    user = await t.createUser({ email: 'plain.user@example.test', firstName: 'Plain', lastName: 'User', password });
    userPair = await t.login(user.email, password);
  });
  afterAll(() => t.close());

  describe('request bodies', () => {
    it('answers 400 MALFORMED_JSON for a body that is not JSON', async () => {
      for (const payload of ['{"firstName": "a", ', '{firstName: "a"}', "{'a': 1}", '[1, 2', 'undefined', '{"a":1}}']) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload, headers: { 'content-type': 'application/json' } });
        expectWellFormedProblem(response, 400, '/api/users', 'MALFORMED_JSON');
      }
      // Public routes too.
      const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: '{"email":', headers: { 'content-type': 'application/json' } });
      expectWellFormedProblem(login, 400, '/api/auth/login', 'MALFORMED_JSON');
    });

    it('answers 400 for an empty body declared as JSON', async () => {
      for (const payload of [undefined, '']) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload, headers: { 'content-type': 'application/json' } });
        expectWellFormedProblem(response, 400, '/api/users', 'MALFORMED_JSON');
      }
      // JSON that is not an object is a validation failure.
      for (const payload of ['null', '[]', '"text"', '42']) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload, headers: { 'content-type': 'application/json' } });
        expectWellFormedProblem(response, 400, '/api/users', 'VALIDATION_FAILED');
      }
    });

    it('accepts JSON with a charset parameter', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: JSON.stringify({ firstName: 'Char', lastName: 'Set', email: 'charset@example.test' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(response.statusCode).toBe(200);
    });

    it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not application/json', async () => {
      for (const contentType of ['application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload: 'firstName=a', headers: { 'content-type': contentType } });
        expectWellFormedProblem(response, 415, '/api/users', 'UNSUPPORTED_MEDIA_TYPE');
      }
    });

    it('answers 415 UNSUPPORTED_MEDIA_TYPE for a text/plain body, even one holding JSON', async () => {
      for (const payload of ['hello', JSON.stringify({ firstName: 'Text', lastName: 'Plain', email: 'text.plain@example.test' })]) {
        const response = await t.request({ method: 'POST', url: '/api/users', token: admin, payload, headers: { 'content-type': 'text/plain' } });
        expectWellFormedProblem(response, 415, '/api/users', 'UNSUPPORTED_MEDIA_TYPE');
      }
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: JSON.stringify({ email: user.email, password }),
        headers: { 'content-type': 'text/plain' },
      });
      expectWellFormedProblem(login, 415, '/api/auth/login', 'UNSUPPORTED_MEDIA_TYPE');
      // Nothing was created.
      const found = await t.request({ method: 'GET', url: '/api/users', token: admin, query: { search: 'text.plain@' } });
      expect(found.json().totalElements).toBe(0);
    });

    it('refuses prototype-pollution bodies with 400 and leaves the role as it was', async () => {
      const bodies = [
        '{"__proto__":{"role":"ADMIN"},"firstName":"Polluted"}',
        '{"firstName":"Polluted","__proto__":{"role":"ADMIN","isAdmin":true}}',
        '{"constructor":{"prototype":{"role":"ADMIN"}},"firstName":"Polluted"}',
        '{"firstName":"Polluted","lastName":{"__proto__":{"role":"ADMIN"}}}',
        '{"role":"ADMIN","firstName":"Polluted"}',
      ];
      for (const payload of bodies) {
        const response = await t.request({
          method: 'PUT',
          url: '/api/self',
          token: userPair.accessToken,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expectWellFormedProblem(response, 400, '/api/self');
      }
      const self = (await t.request({ method: 'GET', url: '/api/self', token: userPair.accessToken })).json<UserBody>();
      expect(self.role).toBe('USER');
      expect(self.firstName).toBe('Plain');
      // The in-process server did not pollute Object.prototype either.
      expect(({} as Record<string, unknown>).role).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      // And the account still cannot do admin things.
      expectWellFormedProblem(
        await t.request({
          method: 'GET',
          url: '/api/sessions',
          token: userPair.accessToken,
          query: { userId: (await t.request({ method: 'GET', url: '/api/self', token: admin })).json().id },
        }),
        403,
        '/api/sessions',
        'FORBIDDEN',
      );

      // An admin creating a user with a polluting body creates nothing.
      const create = await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: '{"__proto__":{"role":"ADMIN"},"firstName":"Proto","lastName":"Type","email":"proto@example.test"}',
        headers: { 'content-type': 'application/json' },
      });
      expectWellFormedProblem(create, 400, '/api/users');
      expect((await t.request({ method: 'GET', url: '/api/users', token: admin, query: { search: 'proto@example' } })).json().totalElements).toBe(0);
    });

    it('refuses deeply nested bodies with 400, without crashing', async () => {
      const depth = 100_000;
      const nestedArrays = `{"firstName":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const nestedObjects = `{"firstName":"Deep","extra":${'{"a":'.repeat(depth / 2)}1${'}'.repeat(depth / 2)}}`;
      const unbalanced = `{"firstName":${'['.repeat(depth)}}`;
      for (const payload of [nestedArrays, nestedObjects, unbalanced]) {
        const response = await t.request({
          method: 'PUT',
          url: '/api/self',
          token: userPair.accessToken,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        expectWellFormedProblem(response, 400, '/api/self');
      }
      const self = (await t.request({ method: 'GET', url: '/api/self', token: userPair.accessToken })).json<UserBody>();
      expect(self).toMatchObject({ firstName: 'Plain', role: 'USER' });
    });

    it('never answers 500 for text holding a NUL character', async () => {
      // PostgreSQL cannot store U+0000 in text; that is bad input (400), not a server fault.
      const cases = [
        { method: 'PUT' as const, url: '/api/self', token: userPair.accessToken, payload: { firstName: 'Nul\u0000Name' } },
        { method: 'GET' as const, url: '/api/users', token: admin, query: { search: 'a\u0000b' } },
        { method: 'POST' as const, url: '/api/auth/login', payload: { email: 'nul\u0000@example.test', password: 'whatever-1' } },
      ];
      const answers: string[] = [];
      for (const { query, ...item } of cases) {
        const response = await t.request({ ...item, ...(query ? { query } : {}) });
        answers.push(`${item.method} ${item.url} -> ${response.statusCode} ${response.json().code}`);
        expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
        expect(response.body).not.toMatch(LEAKS);
      }
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password },
        headers: { 'user-agent': 'Agent\u0000Nul' },
      });
      answers.push(`POST /api/auth/login (NUL in User-Agent) -> ${login.statusCode} ${login.statusCode === 200 ? 'signed in' : login.json().code}`);
      // Each answer is a 4xx (or, for the User-Agent, a sign-in); never a 500.
      expect(answers.filter((answer) => / -> 5\d\d /.test(answer))).toEqual([]);
      expect((await t.request({ method: 'GET', url: '/api/self', token: userPair.accessToken })).json().firstName).toBe('Plain');
    });
  });

  describe('unknown routes', () => {
    it('answers 404 ROUTE_NOT_FOUND problem+json under /api, with or without a token', async () => {
      const anonymous = await t.request({ method: 'GET', url: '/api/no-such-thing?x=1&y=2' });
      const body = expectWellFormedProblem(anonymous, 404, '/api/no-such-thing', 'ROUTE_NOT_FOUND');
      expect(body.detail).not.toContain('x=1');
      expectWellFormedProblem(await t.request({ method: 'GET', url: '/api/no-such-thing', token: admin }), 404, '/api/no-such-thing', 'ROUTE_NOT_FOUND');
      expectWellFormedProblem(
        await t.request({ method: 'POST', url: '/api/users/extra/deep/path', token: admin, payload: {} }),
        404,
        '/api/users/extra/deep/path',
        'ROUTE_NOT_FOUND',
      );
      expectWellFormedProblem(await t.request({ method: 'GET', url: '/nothing-here' }), 404, '/nothing-here', 'ROUTE_NOT_FOUND');
    });

    it('answers an unregistered method on a known path with a 404 problem (no 405 handling)', async () => {
      // Fastify answers unknown method+path pairs from the not-found handler; the catalogue has
      // METHOD_NOT_ALLOWED but nothing uses it yet.
      expectWellFormedProblem(await t.request({ method: 'PATCH', url: '/api/self', token: admin }), 404, '/api/self', 'ROUTE_NOT_FOUND');
      expectWellFormedProblem(await t.request({ method: 'DELETE', url: '/api/health' }), 404, '/api/health', 'ROUTE_NOT_FOUND');
    });

    it('answers a malformed percent-encoding in the path with a 400 problem', async () => {
      const response = await t.request({ method: 'GET', url: '/api/users/%E0%A4%A', token: admin });
      expect(response.statusCode).toBe(400);
      expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 400, instance: '/api/users/%E0%A4%A' });
      expect(response.body).not.toMatch(LEAKS);
    });
  });

  describe('problem+json', () => {
    it('has every member, the path without query string as instance, and no internals, for every kind of error', async () => {
      await t.createUser({ email: 'taken@example.test' });
      const cases: { request: Parameters<TestApp['request']>[0]; status: number; code: string; path: string }[] = [
        {
          request: { method: 'POST', url: '/api/users?trace=1', token: admin, payload: '{"x":', headers: { 'content-type': 'application/json' } },
          status: 400,
          code: 'MALFORMED_JSON',
          path: '/api/users',
        },
        {
          request: { method: 'POST', url: '/api/users', token: admin, payload: { firstName: 'A', lastName: 'B', email: 'not-an-email' } },
          status: 400,
          code: 'VALIDATION_FAILED',
          path: '/api/users',
        },
        { request: { method: 'GET', url: '/api/users/not-a-uuid?x=1', token: admin }, status: 400, code: 'VALIDATION_FAILED', path: '/api/users/not-a-uuid' },
        { request: { method: 'GET', url: '/api/sessions?sort=nope', token: admin }, status: 400, code: 'VALIDATION_FAILED', path: '/api/sessions' },
        { request: { method: 'GET', url: '/api/self?a=b' }, status: 401, code: 'UNAUTHENTICATED', path: '/api/self' },
        { request: { method: 'GET', url: '/api/self', token: 'garbage' }, status: 401, code: 'INVALID_TOKEN', path: '/api/self' },
        {
          request: { method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.test', password: 'wrong-pass-1' } },
          status: 401,
          code: 'INVALID_CREDENTIALS',
          path: '/api/auth/login',
        },
        {
          request: { method: 'POST', url: '/api/users', token: userPair.accessToken, payload: { firstName: 'A', lastName: 'B', email: 'x@example.test' } },
          status: 403,
          code: 'FORBIDDEN',
          path: '/api/users',
        },
        {
          request: { method: 'GET', url: '/api/users/7d3f4a52-9c1e-4b8a-a1f0-2e6b5c4d3a21?q', token: admin },
          status: 404,
          code: 'NOT_FOUND',
          path: '/api/users/7d3f4a52-9c1e-4b8a-a1f0-2e6b5c4d3a21',
        },
        { request: { method: 'GET', url: '/api/nope?secret=1' }, status: 404, code: 'ROUTE_NOT_FOUND', path: '/api/nope' },
        {
          request: { method: 'POST', url: '/api/users', token: admin, payload: { firstName: 'A', lastName: 'B', email: 'TAKEN@example.test' } },
          status: 409,
          code: 'EMAIL_TAKEN',
          path: '/api/users',
        },
        {
          request: { method: 'POST', url: '/api/users', token: admin, payload: '<x/>', headers: { 'content-type': 'application/xml' } },
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          path: '/api/users',
        },
      ];
      for (const item of cases) {
        const response = await t.request(item.request);
        const body = expectWellFormedProblem(response, item.status, item.path, item.code);
        expect(body.status).toBe(item.status);
        expect(body.requestId).toMatch(UUID);
        if (item.code === 'VALIDATION_FAILED') {
          expect(Array.isArray(body.errors)).toBe(true);
          for (const error of body.errors as { field: unknown; message: unknown }[]) {
            expect(typeof error.field).toBe('string');
            expect(typeof error.message).toBe('string');
          }
        }
        if (item.status === 401) expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    });
  });

  describe('request ids', () => {
    it('sends x-request-id on every response, matching the problem requestId', async () => {
      const ok = await t.request({ method: 'GET', url: '/api/health' });
      expect(ok.headers['x-request-id']).toMatch(UUID);
      const other = await t.request({ method: 'GET', url: '/api/health' });
      expect(other.headers['x-request-id']).not.toBe(ok.headers['x-request-id']);
      const problem = await t.request({ method: 'GET', url: '/api/self' });
      expect(problem.headers['x-request-id']).toMatch(UUID);
      expect(problem.json().requestId).toBe(problem.headers['x-request-id']);
      const authenticated = await t.request({ method: 'GET', url: '/api/self', token: admin });
      expect(authenticated.headers['x-request-id']).toMatch(UUID);
    });

    it('echoes a well-formed incoming x-request-id', async () => {
      for (const id of ['abc-123', 'req_01HZX3.K9:trace-7', 'a'.repeat(64), '0f8b5f2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b']) {
        const response = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
        expect(response.headers['x-request-id']).toBe(id);
        const problem = await t.request({ method: 'GET', url: '/api/self', headers: { 'x-request-id': id } });
        expect(problem.headers['x-request-id']).toBe(id);
        expect(problem.json().requestId).toBe(id);
      }
    });

    it('replaces a malformed incoming x-request-id with a fresh one', async () => {
      for (const id of [
        'a'.repeat(65),
        'x'.repeat(200),
        'has space',
        'line\nbreak',
        'tab\there',
        '<script>alert(1)</script>',
        'quote"d',
        'semi;colon',
        'ünïcödé',
      ]) {
        const response = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
        expect(response.statusCode).toBe(200);
        const answered = response.headers['x-request-id'];
        expect(answered).not.toBe(id);
        expect(answered).toMatch(UUID);
        const problem = await t.request({ method: 'GET', url: '/api/nope', headers: { 'x-request-id': id } });
        expect(problem.json().requestId).toMatch(UUID);
        expect(problem.body).not.toContain(id);
      }
    });
  });

  describe('GET /api/health', () => {
    it('answers 200 {"status":"ok"} without a token', async () => {
      const response = await t.request({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ status: 'ok' });
    });

    it('ignores an Authorization header, even a bad one (it is public)', async () => {
      for (const authorization of ['Bearer garbage', 'Basic dXNlcjpwYXNz', `Bearer ${admin}`]) {
        const response = await t.request({ method: 'GET', url: '/api/health', headers: { authorization } });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ status: 'ok' });
      }
    });
  });

  describe('hostile tokens', () => {
    it('never answers 500: alg none, forged, malformed and oversized tokens all get 401 INVALID_TOKEN', async () => {
      const claims = decodeJwt(userPair.accessToken);
      const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
      const [, payload, signature] = userPair.accessToken.split('.') as [string, string, string];
      const adminClaims = { ...claims, sub: (await t.request({ method: 'GET', url: '/api/self', token: admin })).json().id };
      const tokens = [
        new UnsecuredJWT({ ...claims }).encode(),
        new UnsecuredJWT({ ...adminClaims }).encode(),
        `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
        `${b64({ alg: 'NONE' })}.${payload}.${signature}`,
        `${b64({ alg: 'HS256' })}.${b64(adminClaims)}.${signature}`,
        `${b64({ alg: 'HS256', jwk: { kty: 'oct', k: b64('attacker-key') } })}.${payload}.${signature}`,
        `${b64({ alg: 'HS256', kid: "../../etc/passwd' or 1=1 --" })}.${payload}.${signature}`,
        `${b64({ alg: 'RS256' })}.${payload}.${signature}`,
        `${b64('null')}.${b64('null')}.${signature}`,
        `${b64('[]')}.${b64('"str"')}.x`,
        `${b64({ alg: 'HS256' })}.${b64({ ...claims, sid: "x' or '1'='1" })}.${signature}`,
        await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('an-attacker-secret-of-sufficient-length-123')),
        'garbage',
        'a.b.c',
        '...',
        'a.b',
        'e30.e30.',
        `${payload}`,
        'x'.repeat(20_000),
        `${userPair.accessToken}x`,
        userPair.refreshToken,
      ];
      for (const token of tokens) {
        for (const url of ['/api/self', '/api/sessions']) {
          const response = await t.request({ method: 'GET', url, token });
          expect(response.statusCode, `${token.slice(0, 80)} on ${url}: ${response.body}`).not.toBe(500);
          expectWellFormedProblem(response, 401, url, 'INVALID_TOKEN');
        }
      }
      // Malformed Authorization headers are refused the same way.
      for (const authorization of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer \u00e9t\u00e9', 'bearer', `Bearer ${'a'.repeat(10)}\u0000`]) {
        const response = await t.request({ method: 'GET', url: '/api/self', headers: { authorization } });
        expect(response.statusCode).toBe(401);
        expectWellFormedProblem(response, 401, '/api/self');
      }
    });
  });

  describe('paging limits', () => {
    it('answers a page far past the end with 200 and empty content', async () => {
      for (const url of ['/api/sessions', '/api/users', `/api/users/${user.id}/sessions`]) {
        for (const query of <Record<string, string>[]>[
          { page: '999999999' },
          { page: '999999999', size: '1000' },
          { page: '1000000000', size: '5000' },
          { pageable: JSON.stringify({ page: 999999999, size: 1000 }) },
        ]) {
          const response = await t.request({ method: 'GET', url, token: admin, query });
          expect(response.statusCode, `${url} ${JSON.stringify(query)}: ${response.body}`).toBe(200);
          const page = response.json();
          expect(page).toMatchObject({ content: [], empty: true, first: false, last: true, numberOfElements: 0 });
          expect(page.number).toBeGreaterThanOrEqual(999999999);
          expect(page.totalElements).toBeGreaterThan(0);
        }
      }
    });

    it('refuses a page number above 1,000,000,000 with 400', async () => {
      for (const query of <Record<string, string>[]>[
        { page: '1000000001' },
        { 'pageable[page]': '1000000001' },
        { pageable: JSON.stringify({ page: 1000000001 }) },
        { page: '99999999999999999999999' },
        { page: '-1' },
      ]) {
        const response = await t.request({ method: 'GET', url: '/api/sessions', token: admin, query });
        expectWellFormedProblem(response, 400, '/api/sessions', 'VALIDATION_FAILED');
      }
    });

    it('clamps a huge size to 1000', async () => {
      const response = await t.request({ method: 'GET', url: '/api/sessions', token: admin, query: { size: '99999999' } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ size: 1000, pageable: { pageSize: 1000 } });
    });
  });

  // A dedicated app: small body limit, and its database is closed at the end.
  describe('on an app with BODY_LIMIT_BYTES=2048 whose database goes away', () => {
    let small: TestApp;
    let smallAdmin: string;

    beforeAll(async () => {
      small = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
      smallAdmin = await small.adminToken();
    });
    afterAll(async () => {
      // The database was closed by the last test; closing it again may throw.
      await small.close().catch(() => undefined);
    });

    it('answers 413 PAYLOAD_TOO_LARGE for a JSON body over the limit', async () => {
      const big = JSON.stringify({ firstName: 'x'.repeat(4096), lastName: 'Big', email: 'big@example.test' });
      expect(Buffer.byteLength(big)).toBeGreaterThan(4096);
      const response = await small.request({
        method: 'POST',
        url: '/api/users',
        token: smallAdmin,
        payload: big,
        headers: { 'content-type': 'application/json' },
      });
      expectWellFormedProblem(response, 413, '/api/users', 'PAYLOAD_TOO_LARGE');
      const login = await small.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: JSON.stringify({ email: 'a@b.test', password: 'p'.repeat(4096) }),
        headers: { 'content-type': 'application/json' },
      });
      expectWellFormedProblem(login, 413, '/api/auth/login', 'PAYLOAD_TOO_LARGE');
      // Nothing was created.
      expect((await small.request({ method: 'GET', url: '/api/users', token: smallAdmin, query: { search: 'big@example' } })).json().totalElements).toBe(0);
    });

    it('accepts a body just under the limit', async () => {
      const payload = JSON.stringify({ firstName: 'y'.repeat(150), lastName: 'z'.repeat(150), email: 'under.limit@example.test' });
      const padded = payload.replace(/^\{/, `{${' '.repeat(2048 - payload.length - 10)}`);
      expect(Buffer.byteLength(padded)).toBeLessThanOrEqual(2048);
      const response = await small.request({
        method: 'POST',
        url: '/api/users',
        token: smallAdmin,
        payload: padded,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, response.body).toBe(200);
    });

    it('answers readiness with 503 SERVICE_UNAVAILABLE once the database is gone; liveness stays 200', async () => {
      expect((await small.request({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({ status: 'ready' });
      await small.database.handle.close();
      const response = await small.request({ method: 'GET', url: '/api/health/ready' });
      expectWellFormedProblem(response, 503, '/api/health/ready', 'SERVICE_UNAVAILABLE');
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const live = await small.request({ method: 'GET', url: '/api/health' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
    });

    it('answers 503, not 500, to other operations while the database is gone', async () => {
      const answers: string[] = [];
      for (const request of [
        { method: 'GET' as const, url: '/api/self', token: smallAdmin },
        { method: 'GET' as const, url: '/api/sessions', token: smallAdmin },
        { method: 'POST' as const, url: '/api/auth/login', payload: { email: 'admin@example.test', password: 'admin-password-1' } },
      ]) {
        const response = await small.request(request);
        expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
        expect(response.body).not.toMatch(LEAKS);
        answers.push(`${request.method} ${request.url} -> ${response.statusCode} ${response.json().code}`);
      }
      expect(answers).toEqual([
        'GET /api/self -> 503 SERVICE_UNAVAILABLE',
        'GET /api/sessions -> 503 SERVICE_UNAVAILABLE',
        'POST /api/auth/login -> 503 SERVICE_UNAVAILABLE',
      ]);
    });
  });
});
