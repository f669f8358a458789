import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp, type UserBody } from '../helpers/app.js';

/**
 * Text is never silently altered (docs/behaviour.md, HTTP): bytes that are not UTF-8 in a JSON
 * body, a query string, a path or the User-Agent are a 400 INVALID_ENCODING, and nothing is
 * written; valid UTF-8 arrives exactly as sent.
 */

const json = { 'content-type': 'application/json' };
/** A JSON body with raw bytes spliced in where `@` stands. */
const withBytes = (template: string, bytes: number[]) => {
  const [before, after] = template.split('@') as [string, string];
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
};

const NOT_UTF8: Record<string, number[]> = {
  'FF FE': [0xff, 0xfe],
  'Latin-1 ü': [0xfc],
  'overlong "."': [0xc0, 0xae],
  'encoded surrogate': [0xed, 0xa0, 0x80],
  'cut-off €': [0xe2, 0x82],
  'beyond U+10FFFF': [0xf4, 0x90, 0x80, 0x80],
};

describe('text encoding', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it('answers a JSON body that is not UTF-8 with 400 INVALID_ENCODING, on every kind of operation', async () => {
    for (const [name, bytes] of Object.entries(NOT_UTF8)) {
      const search = await t.request({ method: 'POST', url: '/api/search/reports', token: admin, payload: withBytes('{"title":"@"}', bytes), headers: json });
      expectProblem(search, 400, 'INVALID_ENCODING');
      const create = await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: withBytes('{"firstName":"M@ller","lastName":"X","email":"enc@example.test"}', bytes),
        headers: json,
      });
      expect(create.statusCode, name).toBe(400);
      expect(create.json().code, name).toBe('INVALID_ENCODING');
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        payload: withBytes('{"email":"a@example.test","password":"pass@word"}', bytes),
        headers: json,
      });
      expect(login.json().code, name).toBe('INVALID_ENCODING');
    }
    const users = await t.request({ method: 'GET', url: '/api/users', token: admin, query: { search: 'enc@example' } });
    expect(users.json().totalElements).toBe(0);
  });

  it('refuses an escaped lone surrogate, which would be stored as U+FFFD', async () => {
    for (const name of ['\\ud800', 'a\\udc00b', '\\uDBFF\\u0041']) {
      const response = await t.request({
        method: 'POST',
        url: '/api/users',
        token: admin,
        payload: `{"firstName":"${name}","lastName":"X","email":"lone@example.test"}`,
        headers: json,
      });
      expectProblem(response, 400, 'INVALID_ENCODING');
    }
    const key = await t.request({ method: 'POST', url: '/api/search/reports', token: admin, payload: '{"\\ud800":1}', headers: json });
    expectProblem(key, 400, 'INVALID_ENCODING');
  });

  it('keeps valid UTF-8 exactly, escaped or not', async () => {
    const firstName = 'Zoë 🚀 Ñandú 日本';
    const created = await t.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: Buffer.from(JSON.stringify({ firstName, lastName: 'Ünïcode', email: 'utf8@example.test' })),
      headers: json,
    });
    expect(created.statusCode, created.body).toBe(200);
    const user = created.json<UserBody>();
    expect(user.firstName).toBe(firstName);
    const escaped = await t.request({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      token: admin,
      payload: '{"lastName":"\\ud83d\\ude80 \\u00dc"}',
      headers: json,
    });
    expect(escaped.statusCode, escaped.body).toBe(200);
    expect(escaped.json().lastName).toBe('🚀 Ü');
    const found = await t.request({ method: 'GET', url: '/api/users?search=Zo%C3%AB', token: admin });
    expect(found.json().content.map((u: UserBody) => u.id)).toEqual([user.id]);
  });

  it('answers a query string that is not percent-encoded UTF-8 with 400 INVALID_ENCODING', async () => {
    for (const value of ['%FF', '%C0%AE', '%ED%A0%80', '%E2%82', 'a%ZZ', '%']) {
      const response = await t.request({ method: 'GET', url: `/api/users?search=${value}`, token: admin });
      expectProblem(response, 400, 'INVALID_ENCODING');
      expect(response.headers['x-request-id']).toBe(response.json().requestId);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const key = await t.request({ method: 'GET', url: `/api/reservation?x${value}=1`, token: admin });
      expectProblem(key, 400, 'INVALID_ENCODING');
    }
    // Repeated keys and + still read as before.
    const ok = await t.request({ method: 'GET', url: '/api/users?search=a+b&sort=lastName&sort=firstName,desc', token: admin });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().sort).toHaveLength(2);
  });

  it('answers a path that is not percent-encoded UTF-8 with 400 INVALID_ENCODING', async () => {
    for (const value of ['%FF', '%C0%AE', '%ED%A0%80', '%E0%A4%A']) {
      expectProblem(await t.request({ method: 'GET', url: `/api/users/${value}`, token: admin }), 400, 'INVALID_ENCODING');
    }
  });

  it('reads the User-Agent as UTF-8, and refuses one that is not', async () => {
    await t.createUser({ email: 'agent@example.test', password: 'agent-password-1' });
    // Node hands header bytes over as Latin-1 characters: these are the UTF-8 bytes of "Zoë-Browser/1 🚀".
    const utf8Bytes = Buffer.from('Zoë-Browser/1 🚀').toString('latin1');
    const pair = await t.login('agent@example.test', 'agent-password-1', { 'user-agent': utf8Bytes });
    const sessions = await t.request({ method: 'GET', url: '/api/sessions', token: pair.accessToken });
    expect(sessions.json().content[0].userAgent).toBe('Zoë-Browser/1 🚀');
    const refused = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'agent@example.test', password: 'agent-password-1' },
      headers: { 'user-agent': 'Mozilla \u00ff\u00fe' },
    });
    expectProblem(refused, 400, 'INVALID_ENCODING');
  });
});
