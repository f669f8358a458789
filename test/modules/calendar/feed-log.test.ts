import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logPath, serializeError } from '../../../src/logging.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

/**
 * A feed's URL is its credential: no log line holds its token (docs/deployment.md#logs-and-secrets).
 * The app logs as a server does (loggerOptions, the request log on) and the test reads the lines.
 */

const PASSWORD = 'feed-log-password-1';

describe('the calendar feed token in the log', () => {
  let t: TestApp;
  const lines: string[] = [];
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://desk.example.test' }, logLines: (line) => lines.push(line) });
    const user = await t.createUser({ email: 'feed.log@example.test', password: PASSWORD });
    token = (await t.login(user.email, PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows [redacted] in the request log line for every spelling of a feed path', async () => {
    const created = await t.request({ method: 'POST', url: '/api/self/calendar-feed', token });
    expect(created.statusCode).toBe(200);
    const path = new URL(created.json<{ url: string }>().url).pathname;
    const secret = path.slice('/api/calendar/'.length, -'.ics'.length);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    lines.length = 0;
    const first = await t.request({ method: 'GET', url: path });
    expect(first.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: path, headers: { 'if-none-match': String(first.headers.etag) } })).statusCode).toBe(304);
    expect((await t.request({ method: 'GET', url: `${path}?x=${secret}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `${path}/` })).statusCode).toBe(200);
    // Unknown and malformed tokens are secrets too (a typo of a real one).
    expect((await t.request({ method: 'GET', url: `/api/calendar/${secret.slice(0, 42)}x.ics` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/calendar/${secret}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `//api//calendar/${secret}.ics` })).statusCode).toBeGreaterThanOrEqual(200);

    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = parsed.filter((line) => line.msg === 'request completed');
    expect(completed.length).toBe(7);
    expect(completed.map((line) => line.path)).toEqual([
      '/api/calendar/[redacted].ics',
      '/api/calendar/[redacted].ics',
      '/api/calendar/[redacted].ics',
      '/api/calendar/[redacted].ics/',
      '/api/calendar/[redacted].ics',
      '/api/calendar/[redacted]',
      '//api//calendar/[redacted].ics',
    ]);
    for (const line of lines) expect(line).not.toContain(secret);
    for (const line of lines) expect(line).not.toContain(secret.slice(0, 20));
  });

  it('redacts the token in the request serializer and in logged errors', () => {
    expect(logPath('/api/calendar/abcDEF_-123.ics?token=x')).toBe('/api/calendar/[redacted].ics');
    expect(logPath('/API/Calendar/abc.ics')).toBe('/API/Calendar/[redacted].ics');
    expect(logPath('/api/self/calendar-feed')).toBe('/api/self/calendar-feed');
    expect(logPath('/api/reservation/1')).toBe('/api/reservation/1');
    const error = new Error('Route GET:/api/calendar/s3cretT0ken.ics/x not found');
    const serialized = serializeError(Object.assign(new Error('outer'), { cause: error }));
    expect(JSON.stringify(serialized)).not.toContain('s3cretT0ken');
    expect((serialized.cause as { message: string }).message).toBe('Route GET:/api/calendar/[redacted].ics/x not found');
  });
});
