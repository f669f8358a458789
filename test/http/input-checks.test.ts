import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp, type UserBody } from '../helpers/app.js';

/**
 * Input a JSON Schema alone would let through (docs/behaviour.md, HTTP): text PostgreSQL cannot
 * store as sent (NUL, and UTF-16 surrogates without their pair, which JSON can spell as
 * `"\ud800"` and which would be stored as U+FFFD), and ids in forms PostgreSQL does not read.
 * Each is a 400 naming the field, before any work is done.
 */
describe('input checks beyond the schema', () => {
  let t: TestApp;
  let admin: string;
  let user: UserBody;
  let userToken: string;
  const password = 'unstorable-password-1';

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '100000' } });
    admin = await t.adminToken();
    user = await t.createUser({ email: 'text.user@example.test', firstName: 'Text', lastName: 'User', password });
    userToken = (await t.login(user.email, password)).accessToken;
  });
  afterAll(() => t.close());

  const json = (method: 'POST' | 'PUT', url: string, body: string, token?: string) =>
    t.request({ method, url, token, payload: body, headers: { 'content-type': 'application/json' } });

  // The JSON body parser refuses these before validation (docs/behaviour.md#http): the body is not text.
  it('refuses an unpaired surrogate in a JSON string with 400 INVALID_ENCODING, and stores nothing', async () => {
    for (const body of ['{"firstName":"Fuzz\\ud800"}', '{"lastName":"\\udfffFuzz"}', '{"firstName":"A\\udc00\\ud800B"}']) {
      const problem = expectProblem(await json('PUT', '/api/self', body, userToken), 400, 'INVALID_ENCODING');
      expect(problem.detail).toContain('surrogate');
    }
    const created = await json('POST', '/api/users', '{"firstName":"New\\ud83d","lastName":"User","email":"surrogate@example.test"}', admin);
    expectProblem(created, 400, 'INVALID_ENCODING');
    expect((await t.request({ method: 'GET', url: '/api/users', token: admin, query: { search: 'surrogate@' } })).json().totalElements).toBe(0);
    const search = await json('POST', '/api/search/departments', '{"department":{"building":"\\ud800"}}', userToken);
    expectProblem(search, 400, 'INVALID_ENCODING');
    expect((await t.request({ method: 'GET', url: '/api/self', token: userToken })).json()).toMatchObject({ firstName: 'Text', lastName: 'User' });
  });

  it('accepts characters outside the Basic Multilingual Plane (a surrogate pair)', async () => {
    const response = await json('PUT', '/api/self', '{"firstName":"Text \\ud83d\\ude00"}', userToken);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().firstName).toBe('Text 😀');
    expect((await json('PUT', '/api/self', '{"firstName":"Text"}', userToken)).statusCode).toBe(200);
  });

  it('refuses NUL in every JSON member with 400 naming it, passwords and addresses included', async () => {
    const cases: [ReturnType<typeof json>, string][] = [
      [json('PUT', `/api/users/${user.id}/password`, '{"password":"new-password\\u0000-1"}', admin), 'password'],
      [json('POST', '/api/password/forgot', `{"email":"${user.email}\\u0000"}`), 'email'],
      [json('POST', '/api/auth/login', `{"email":"${user.email}","password":"${password}\\u0000"}`), 'password'],
    ];
    for (const [request, field] of cases) {
      const problem = expectProblem(await request, 400, 'VALIDATION_FAILED');
      expect(problem.errors).toEqual([{ field, message: expect.stringContaining('NUL') }]);
    }
    // The password was not changed: the old one still signs in.
    expect((await t.login(user.email, password)).userId).toBe(user.id);
  });

  it('refuses NUL in a query string with 400 naming the parameter', async () => {
    const problem = expectProblem(await t.request({ method: 'GET', url: '/api/users', token: admin, query: { search: 'a\u0000b' } }), 400, 'VALIDATION_FAILED');
    expect(problem.errors).toEqual([{ field: 'search', message: expect.stringContaining('NUL') }]);
  });

  it('takes ids only as plain UUIDs: a urn:uuid: prefix is 400 naming the field, in paths, queries and bodies', async () => {
    const urn = `urn:uuid:${user.id}`;
    expect(expectProblem(await t.request({ method: 'GET', url: `/api/users/${urn}`, token: admin }), 400, 'VALIDATION_FAILED').errors).toEqual([
      { field: 'id', message: expect.any(String) },
    ]);
    expect(
      expectProblem(await t.request({ method: 'GET', url: '/api/reservation', token: admin, query: { userId: urn } }), 400, 'VALIDATION_FAILED').errors,
    ).toEqual([{ field: 'userId', message: expect.any(String) }]);
    const report = await json('POST', '/api/report', JSON.stringify({ title: 'Broken', description: 'Broken', reportedBy: urn }), admin);
    expect(expectProblem(report, 400, 'VALIDATION_FAILED').errors).toEqual([{ field: 'reportedBy', message: expect.any(String) }]);
    // Upper case is a UUID all the same.
    expect((await t.request({ method: 'GET', url: `/api/users/${user.id.toUpperCase()}`, token: admin })).json()).toMatchObject({ id: user.id });
  });
});
