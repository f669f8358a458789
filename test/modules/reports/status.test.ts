import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '../../../src/db/schema.js';
import type { Caller } from '../../../src/identity/caller.js';
import { ReportsService, type ReportStatusChanged } from '../../../src/modules/reports/reports.service.js';
import { ISO_UTC, createTestApp, drainOutbox, expectProblem, type TestApp } from '../../helpers/app.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';
import { insertDeskInNewRoom } from '../../helpers/fixtures.js';

/**
 * A report's status (docs/behaviour.md#report-status): admins set it with a note, the reporter
 * reads it (others may not), admins list by status, and every real change, and only a real one,
 * passes through the service's notification hook inside the transaction that writes it.
 */

const PASSWORD = 'status-password-1';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface StatusBody {
  reportId: string;
  status: string;
  note: string | null;
  changedAt: string | null;
  changedBy: string | null;
}

describe('report status', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let deskId: string;

  const file = async (title: string, who = alice) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/report',
      token: who.token,
      payload: { title, description: 'Broken', reportedBy: who.id, deskId },
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ id: string }>().id;
  };
  const setStatus = (id: string, payload: object, token = admin) => t.request({ method: 'PUT', url: `/api/report/${id}/status`, token, payload });
  const getStatus = (id: string, token: string) => t.request({ method: 'GET', url: `/api/report/${id}/status`, token });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    adminId = (await t.request({ method: 'GET', url: '/api/self', token: admin })).json<{ id: string }>().id;
    for (const name of ['alice', 'bob']) {
      const user = await t.createUser({ email: `${name}@example.test`, password: PASSWORD });
      const person = { id: user.id, token: (await t.login(user.email, PASSWORD)).accessToken };
      if (name === 'alice') alice = person;
      else bob = person;
    }
    deskId = (await insertDeskInNewRoom(t.database.handle.db)).desk.id;
  });
  afterAll(() => t.close());

  it('a new report is OPEN, unchanged; the Report resource itself does not grow', async () => {
    const id = await file('Monitor flickers');
    const status = await getStatus(id, alice.token);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({ reportId: id, status: 'OPEN', note: null, changedAt: null, changedBy: null });
    const report = (await t.request({ method: 'GET', url: `/api/report/${id}`, token: alice.token })).json<object>();
    expect(Object.keys(report)).not.toContain('status');
  });

  it('an admin sets status and note; the reporter sees them; another user and unknown reports are refused', async () => {
    const id = await file('Chair broken');
    const before = t.clock.now();
    const set = await setStatus(id, { status: 'IN_PROGRESS', note: '  A new chair is ordered.  ' });
    expect(set.statusCode).toBe(200);
    const body = set.json<StatusBody>();
    expect(body).toEqual({
      reportId: id,
      status: 'IN_PROGRESS',
      note: 'A new chair is ordered.',
      changedAt: expect.stringMatching(ISO_UTC),
      changedBy: adminId,
    });
    expect(Date.parse(body.changedAt!)).toBe(before.getTime());
    expect((await getStatus(id, alice.token)).json()).toEqual(body);

    expectProblem(await getStatus(id, bob.token), 403, 'FORBIDDEN');
    expectProblem(await setStatus(id, { status: 'RESOLVED' }, alice.token), 403, 'FORBIDDEN');
    expectProblem(await setStatus(UNKNOWN_ID, { status: 'RESOLVED' }), 404, 'NOT_FOUND');
    expectProblem(await getStatus(UNKNOWN_ID, admin), 404, 'NOT_FOUND');
    const bad = expectProblem(await setStatus(id, { status: 'DONE' }), 400, 'VALIDATION_FAILED');
    expect(bad.errors?.map((error) => error.field)).toEqual(['status']);
    expectProblem(await setStatus(id, { status: 'RESOLVED', note: 'x'.repeat(2001) }), 400, 'VALIDATION_FAILED');
    expectProblem(await setStatus(id, { status: 'RESOLVED', extra: 1 }), 400, 'VALIDATION_FAILED');
    // Nothing of the refused ones was written.
    expect((await getStatus(id, alice.token)).json()).toEqual(body);

    // A blank note is no note; setting the same again changes nothing, not even the time.
    t.clock.advance(60_000);
    const resolved = (await setStatus(id, { status: 'RESOLVED', note: '   ' })).json<StatusBody>();
    expect(resolved).toMatchObject({ status: 'RESOLVED', note: null });
    t.clock.advance(60_000);
    expect((await setStatus(id, { status: 'RESOLVED' })).json()).toEqual(resolved);
  });

  it('admins list by status; a user lists their own only', async () => {
    const first = await file('Lamp out', bob);
    t.clock.advance(1000);
    const second = await file('Socket loose', bob);
    await setStatus(second, { status: 'RESOLVED', note: 'Fixed' });
    const list = (query: Record<string, string>, token = admin) => t.request({ method: 'GET', url: '/api/report-statuses', token, query });

    const resolved = (await list({ status: 'RESOLVED', size: '100' })).json<{ content: { report: { id: string }; status: StatusBody }[] }>();
    expect(resolved.content.every((item) => item.status.status === 'RESOLVED')).toBe(true);
    expect(resolved.content.map((item) => item.report.id)).toContain(second);
    expect(resolved.content.map((item) => item.report.id)).not.toContain(first);

    const bobs = await list({ reportedBy: bob.id }, bob.token);
    expect(bobs.statusCode).toBe(200);
    expect(bobs.json<{ content: { report: { id: string; title: string }; status: StatusBody }[] }>().content).toEqual([
      { report: expect.objectContaining({ id: second, title: 'Socket loose' }), status: expect.objectContaining({ status: 'RESOLVED', note: 'Fixed' }) },
      { report: expect.objectContaining({ id: first, title: 'Lamp out' }), status: expect.objectContaining({ status: 'OPEN', note: null }) },
    ]);
    expectProblem(await list({ reportedBy: alice.id }, bob.token), 403, 'FORBIDDEN');
    expectProblem(await list({}, bob.token), 403, 'FORBIDDEN');
    expectProblem(await list({ status: 'CLOSED' }), 400, 'VALIDATION_FAILED');
    // The admins' page narrows by text and office too (the search's criteria, with the status).
    const ids = async (query: Record<string, string>) =>
      (await list({ size: '100', ...query })).json<{ content: { report: { id: string } }[] }>().content.map((item) => item.report.id);
    expect(await ids({ title: 'SOCKET', status: 'RESOLVED' })).toEqual([second]);
    expect(await ids({ title: 'socket', status: 'OPEN' })).toEqual([]);
    expect(await ids({ title: '100%_' })).toEqual([]);
    const departmentId = (await t.request({ method: 'GET', url: `/api/report/${first}`, token: admin })).json<{ departmentId: string }>().departmentId;
    expect(await ids({ departmentId, description: 'broken', reportedBy: bob.id })).toEqual([second, first]);
  });

  it('tells every real change, and only those, through the hook in the writing transaction; a failing hook writes nothing', async () => {
    const told: ReportStatusChanged[] = [];
    let fail = false;
    const service = new ReportsService(t.database.handle.db, t.clock, async (tx, change) => {
      // Inside the transaction: it sees the new status already.
      const [row] = await tx.select({ status: reports.status }).from(reports);
      expect(row).toBeDefined();
      if (fail) throw new Error('outbox refused');
      told.push(change);
    });
    const caller = { user: { id: adminId, role: 'ADMIN', mustChangePassword: false }, sessionId: UNKNOWN_ID } as unknown as Caller;
    const id = await file('Headset crackles');

    await service.setStatus(caller, id, { status: 'IN_PROGRESS', note: 'Looking at it' });
    await service.setStatus(caller, id, { status: 'IN_PROGRESS', note: 'Looking at it' });
    await service.setStatus(caller, id, { status: 'IN_PROGRESS', note: 'Replacement ordered' });
    expect(told).toEqual([
      expect.objectContaining({
        reportId: id,
        title: 'Headset crackles',
        reportedBy: alice.id,
        from: 'OPEN',
        to: 'IN_PROGRESS',
        note: 'Looking at it',
        changedBy: adminId,
      }),
      expect.objectContaining({ reportId: id, from: 'IN_PROGRESS', to: 'IN_PROGRESS', note: 'Replacement ordered' }),
    ]);

    fail = true;
    await expect(service.setStatus(caller, id, { status: 'RESOLVED' })).rejects.toThrow('outbox refused');
    expect((await getStatus(id, alice.token)).json()).toMatchObject({ status: 'IN_PROGRESS', note: 'Replacement ordered' });
  });
});

describe('telling the reporter of a status change by mail (docs/behaviour.md#report-status)', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: string;
  let adminId: string;
  let carol: { id: string; token: string };
  let deskId: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://desks.example.test' } });
    admin = await t.adminToken();
    adminId = (await t.request({ method: 'GET', url: '/api/self', token: admin })).json<{ id: string }>().id;
    const user = await t.createUser({ email: 'carol@example.test', password: PASSWORD });
    carol = { id: user.id, token: (await t.login(user.email, PASSWORD)).accessToken };
    deskId = (await insertDeskInNewRoom(t.database.handle.db)).desk.id;
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const file = async (title: string, who: { id: string; token: string }) =>
    (await t.request({ method: 'POST', url: '/api/report', token: who.token, payload: { title, description: 'Broken', reportedBy: who.id, deskId } })).json<{
      id: string;
    }>().id;
  const setStatus = (id: string, payload: object) => t.request({ method: 'PUT', url: `/api/report/${id}/status`, token: admin, payload });
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to === address);

  it('mails the reporter once per real change, with the status and the note, through the outbox', async () => {
    const id = await file('Wobbly <chair>', carol);
    expect((await setStatus(id, { status: 'IN_PROGRESS', note: 'A new one is ordered & on its way' })).statusCode).toBe(200);
    expect((await setStatus(id, { status: 'IN_PROGRESS', note: 'A new one is ordered & on its way' })).statusCode).toBe(200);
    expect(mailsTo('carol@example.test')).toHaveLength(0); // queued, not sent from the request
    await drainOutbox(t.app);
    const mails = mailsTo('carol@example.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your report is in progress: Wobbly <chair>');
    expect(mails[0]!.text).toContain('A new one is ordered & on its way');
    expect(mails[0]!.text).toContain('https://desks.example.test/report');
    expect(mails[0]!.html).toContain('Wobbly &#60;chair&#62;');
    expect((await setStatus(id, { status: 'RESOLVED' })).statusCode).toBe(200);
    await drainOutbox(t.app);
    expect(mailsTo('carol@example.test').map((mail) => mail.subject)).toEqual([
      'Your report is in progress: Wobbly <chair>',
      'Your report is resolved: Wobbly <chair>',
    ]);
  });

  it('writes the mail in the reporter’s language (docs/i18n.md#mails-and-the-calendar-feed)', async () => {
    const user = await t.createUser({ email: 'greta@example.test', firstName: 'Greta', password: PASSWORD });
    const greta = { id: user.id, token: (await t.login(user.email, PASSWORD)).accessToken };
    expect((await t.request({ method: 'PUT', url: '/api/self/preferences', token: greta.token, payload: { language: 'de' } })).statusCode).toBe(200);
    const id = await file('Wackeliger Stuhl', greta);
    expect((await setStatus(id, { status: 'IN_PROGRESS', note: 'Ein neuer ist bestellt' })).statusCode).toBe(200);
    await drainOutbox(t.app);
    const [mail] = mailsTo('greta@example.test');
    expect(mail?.subject).toBe('Ihre Meldung ist in Bearbeitung: Wackeliger Stuhl');
    expect(mail?.text).toBe(
      'Hallo Greta,\n\nIhre Meldung „Wackeliger Stuhl“ ist jetzt in Bearbeitung.\n\nDas Team vor Ort schreibt: Ein neuer ist bestellt\n\n' +
        'Ihre Meldungen: https://desks.example.test/report\n',
    );
    expect(mail?.html).toContain('>Ihre Meldungen</a>');
  });

  it('mails nobody for a change an admin makes to their own report, nor to a disabled reporter', async () => {
    const own = await t.request({
      method: 'POST',
      url: '/api/report',
      token: admin,
      payload: { title: 'Own report', description: 'Broken', reportedBy: adminId, deskId },
    });
    expect((await setStatus(own.json<{ id: string }>().id, { status: 'RESOLVED' })).statusCode).toBe(200);
    const id = await file('Flickering lamp', carol);
    expect((await t.request({ method: 'PUT', url: `/api/users/${carol.id}`, token: admin, payload: { enabled: false } })).statusCode).toBe(200);
    const before = smtp.mails.length;
    expect((await setStatus(id, { status: 'RESOLVED' })).statusCode).toBe(200);
    await drainOutbox(t.app);
    expect(smtp.mails.length).toBe(before);
  });
});
