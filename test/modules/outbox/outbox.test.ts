import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../../src/db/schema.js';
import { createTestApp, expectProblem, type TestApp } from '../../helpers/app.js';

/**
 * The admin's view of the outbox (docs/api.md, docs/architecture.md#the-outbox): GET
 * /api/admin/outbox lists messages without what they carry; POST …/{id}/retry sends a dead one
 * again. Admins only.
 */
describe('GET /api/admin/outbox and POST /api/admin/outbox/{id}/retry', () => {
  let t: TestApp;
  let userToken: string;
  let deadId: number;
  let sentId: number;
  let calendarDeadId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await t.createUser({ email: 'plain.user@example.test', password: 'plain-user-pw-1' });
    userToken = (await t.login(user.email, 'plain-user-pw-1')).accessToken;
    const db = t.database.handle.db;
    const at = new Date('2030-02-01T08:00:00Z');
    const rows = await db
      .insert(outbox)
      .values([
        {
          kind: 'mail',
          groupKey: 'gave.up@example.test',
          payload: { to: 'gave.up@example.test', subject: 'Desk released', text: 'secret body text', html: '<p>secret body text</p>' },
          status: 'dead',
          attempts: 5,
          lastError: 'the SMTP server did not accept the mail',
          createdAt: at,
          deadAt: new Date(at.getTime() + 900_000),
        },
        { kind: 'mail', groupKey: 'went.out@example.test', payload: { to: 'went.out@example.test' }, status: 'sent', attempts: 1, sentAt: at, createdAt: at },
        {
          kind: 'calendar.invitation',
          groupKey: user.id,
          payload: { reservationId: '00000000-0000-4000-8000-000000000001', seriesId: null },
          status: 'dead',
          attempts: 10,
          lastError: 'the SMTP server did not accept the invitation mail',
          createdAt: new Date(at.getTime() + 1000),
          deadAt: new Date(at.getTime() + 2000),
        },
      ])
      .returning({ id: outbox.id });
    [deadId, sentId, calendarDeadId] = rows.map((row) => row.id) as [number, number, number];
  });
  afterAll(() => t?.close());

  it('answers 403 to a user, 401 without a token', async () => {
    expectProblem(await t.request({ method: 'GET', url: '/api/admin/outbox?status=dead', token: userToken }), 403, 'FORBIDDEN');
    expectProblem(await t.request({ method: 'POST', url: `/api/admin/outbox/${deadId}/retry`, token: userToken }), 403, 'FORBIDDEN');
    expectProblem(await t.request({ method: 'GET', url: '/api/admin/outbox' }), 401, 'UNAUTHENTICATED');
    expectProblem(await t.request({ method: 'GET', url: '/api/admin/outbox/counts', token: userToken }), 403, 'FORBIDDEN');
  });

  it("counts the messages of each status (the web page's tabs), zero for a status without any", async () => {
    const response = await t.request({ method: 'GET', url: '/api/admin/outbox/counts', token: await t.adminToken() });
    expect(response.statusCode).toBe(200);
    // Run before the retry below: two dead, one sent, one pending (the account mail of the user made above), none being sent.
    expect(response.json()).toEqual({ pending: 1, sending: 0, sent: 1, dead: 2 });
  });

  it('lists the dead messages in a page: kind, recipient, tries, error, times; never the content', async () => {
    const response = await t.request({ method: 'GET', url: '/api/admin/outbox?status=dead', token: await t.adminToken() });
    expect(response.statusCode).toBe(200);
    const page = response.json<{ content: Record<string, unknown>[]; totalElements: number }>();
    expect(page.totalElements).toBe(2);
    expect(page.content).toEqual([
      {
        id: calendarDeadId,
        kind: 'calendar.invitation',
        recipient: 'plain.user@example.test',
        status: 'dead',
        attempts: 10,
        lastError: 'the SMTP server did not accept the invitation mail',
        createdAt: '2030-02-01T08:00:01.000Z',
        nextAttemptAt: null,
        sentAt: null,
        deadAt: '2030-02-01T08:00:02.000Z',
      },
      {
        id: deadId,
        kind: 'mail',
        recipient: 'gave.up@example.test',
        status: 'dead',
        attempts: 5,
        lastError: 'the SMTP server did not accept the mail',
        createdAt: '2030-02-01T08:00:00.000Z',
        nextAttemptAt: null,
        sentAt: null,
        deadAt: '2030-02-01T08:15:00.000Z',
      },
    ]);
    expect(response.body).not.toContain('secret body text');
    const sorted = await t.request({ method: 'GET', url: '/api/admin/outbox?status=dead&sort=attempts,asc&size=1', token: await t.adminToken() });
    expect(sorted.json<{ content: { id: number }[]; totalElements: number }>()).toMatchObject({ content: [{ id: deadId }], totalElements: 2 });
  });

  it('refuses an unknown status or sort property with 400', async () => {
    expectProblem(await t.request({ method: 'GET', url: '/api/admin/outbox?status=lost', token: await t.adminToken() }), 400, 'VALIDATION_FAILED');
    expectProblem(await t.request({ method: 'GET', url: '/api/admin/outbox?sort=payload', token: await t.adminToken() }), 400, 'VALIDATION_FAILED');
  });

  it('retries a dead message: pending at once, tries from 0; a second retry is 409, an unknown id 404, a bad id 400', async () => {
    const admin = await t.adminToken();
    const retried = await t.request({ method: 'POST', url: `/api/admin/outbox/${deadId}/retry`, token: admin });
    expect(retried.statusCode).toBe(204);
    const [row] = await t.database.handle.db.select().from(outbox).where(eq(outbox.id, deadId));
    expect(row).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: null, deadAt: null });
    expectProblem(await t.request({ method: 'POST', url: `/api/admin/outbox/${deadId}/retry`, token: admin }), 409, 'OUTBOX_NOT_DEAD');
    expectProblem(await t.request({ method: 'POST', url: `/api/admin/outbox/${sentId}/retry`, token: admin }), 409, 'OUTBOX_NOT_DEAD');
    expectProblem(await t.request({ method: 'POST', url: '/api/admin/outbox/999999999/retry', token: admin }), 404, 'NOT_FOUND');
    expectProblem(await t.request({ method: 'POST', url: '/api/admin/outbox/abc/retry', token: admin }), 400, 'VALIDATION_FAILED');
    expectProblem(await t.request({ method: 'POST', url: '/api/admin/outbox/0/retry', token: admin }), 400, 'VALIDATION_FAILED');
    const pending = await t.request({ method: 'GET', url: '/api/admin/outbox?status=pending', token: admin });
    expect(pending.json<{ content: { id: number }[] }>().content.map((message) => message.id)).toContain(deadId);
    const counts = await t.request({ method: 'GET', url: '/api/admin/outbox/counts', token: admin });
    expect(counts.json()).toEqual({ pending: 2, sending: 0, sent: 1, dead: 1 });
  });
});
