import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, drainOutbox, expectProblem, TestClock, type TestApp, type UserBody } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * The public-holiday import of closures (docs/policies.md#public-holidays): the catalogue of
 * countries, bad input naming the field, the preview (NEW, CLOSED, PAST in the offices' zones),
 * the import (one closure per holiday name, reservations cancelled or kept as for any closure,
 * one mail per owner) and a second import adding nothing.
 */

const PASSWORD = 'holidays-password-1';
const NOW = new Date('2030-03-04T08:00:00.000Z');

interface Holiday {
  date: string;
  name: string;
  status: 'NEW' | 'CLOSED' | 'PAST';
  closureId: string | null;
}

describe('public-holiday import', () => {
  let t: TestApp;
  let db: Database;
  let smtp: TestSmtp;
  let clock: TestClock;
  let admin: string;
  let alice: UserBody;
  let aliceToken: string;
  let offices = 0;

  async function office(zone: string, where: { location?: string; building?: string } = {}) {
    const department = await insertDepartment(db, { location: where.location ?? `Town ${++offices}`, building: where.building ?? `House ${offices}` });
    expect((await t.request({ method: 'PUT', url: `/api/departments/${department.id}/settings`, token: admin, payload: { timeZone: zone } })).statusCode).toBe(
      200,
    );
    const room = await insertRoom(db, department.id, { available: true });
    const desk = await insertDesk(db, room.id, { type: 'FLEX' });
    return { departmentId: department.id, deskId: desk.id };
  }
  const preview = (payload: Record<string, unknown>, token = admin) => t.request({ method: 'POST', url: '/api/closures/holidays/preview', token, payload });
  const importing = (payload: Record<string, unknown>, token = admin) => t.request({ method: 'POST', url: '/api/closures/holidays', token, payload });
  const closureCount = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from closures`))[0]!.n;
  const statusOf = (holidays: Holiday[], date: string) => holidays.find((holiday) => holiday.date === date)?.status;

  beforeAll(async () => {
    smtp = await startSmtp();
    clock = new TestClock(NOW);
    t = await createTestApp({ clock, env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://desks.example.test' } });
    db = t.database.handle.db;
    admin = await t.adminToken();
    alice = await t.createUser({ email: 'alice@example.test', firstName: 'Alice', lastName: 'Adams', password: PASSWORD });
    aliceToken = (await t.login(alice.email, PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('lists countries with their states, regions and languages, cacheable, with the attribution; admins only', async () => {
    const response = await t.request({ method: 'GET', url: '/api/closures/holidays/regions', token: admin });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, max-age=86400');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json<{
      attribution: string;
      countries: { code: string; name: string; languages: string[]; states: { code: string; name: string; regions: { code: string }[] }[] }[];
    }>();
    expect(body.attribution).toBe('Holiday data: date-holidays (CC BY 3.0)');
    expect(body.countries.length).toBeGreaterThan(100);
    const germany = body.countries.find((country) => country.code === 'DE')!;
    expect(germany).toMatchObject({ name: 'Germany', languages: ['de', 'en'] });
    expect(germany.states.find((state) => state.code === 'BY')).toMatchObject({
      name: 'Bayern',
      regions: expect.arrayContaining([expect.objectContaining({ code: 'A' })]),
    });
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.request({ method: 'GET', url: '/api/closures/holidays/regions', token: admin, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expectProblem(await t.request({ method: 'GET', url: '/api/closures/holidays/regions', token: aliceToken }), 403, 'FORBIDDEN');
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const { departmentId } = await office('Europe/Berlin');
    const base = { scope: 'DEPARTMENT', departmentId, country: 'DE', years: [2030], onExisting: 'keep' };
    const field = async (payload: Record<string, unknown>, name: string) => {
      const { onExisting: _keep, ...shown } = { ...base, ...payload };
      for (const response of [await importing({ ...base, ...payload }), await preview(shown)]) {
        const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
        expect(problem.errors?.map((error) => error.field)).toContain(name);
      }
    };
    await field({ country: 'XX' }, 'country');
    await field({ country: 'Germany' }, 'country');
    await field({ state: 'ZZ' }, 'state');
    await field({ region: 'A' }, 'region');
    await field({ state: 'BY', region: 'ZZ' }, 'region');
    await field({ language: 'fr' }, 'language');
    await field({ years: [2029] }, 'years.0');
    await field({ years: [2030, 2041] }, 'years.1');
    await field({ years: [2041, 2030] }, 'years.0');
    await field({ years: [2030, 2031, 2032] }, 'years');
    await field({ years: [] }, 'years');
    await field({ scope: 'EVERYWHERE' }, 'departmentId');
    await field({ departmentId: '00000000-0000-4000-8000-000000000000' }, 'departmentId');
    expectProblem(await importing(base, aliceToken), 403, 'FORBIDDEN');
    expect(await closureCount()).toBe(0);
  });

  it('previews, imports one closure per holiday name with the reservations cancelled, and a second import adds nothing', async () => {
    const munich = await office('Europe/Berlin');
    const reservation = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: aliceToken,
      payload: { deskId: munich.deskId, startTime: '2030-04-19T07:00:00Z', endTime: '2030-04-19T15:00:00Z' },
    });
    expect(reservation.statusCode).toBe(200);
    await drainOutbox(t.app);
    const before = smtp.mails.length;
    // An admin's own closure on Labour Day already closes the office.
    const own = await t.request({
      method: 'POST',
      url: '/api/closures',
      token: admin,
      payload: { scope: 'EVERYWHERE', reason: 'Our own', dates: ['2030-05-01'], onExisting: 'keep' },
    });
    expect(own.statusCode).toBe(200);
    const ownId = own.json<{ closure: { id: string } }>().closure.id;

    const body = { scope: 'DEPARTMENT', departmentId: munich.departmentId, country: 'de', state: 'by', language: 'en', years: [2031, 2030] };
    const shown = await preview(body);
    expect(shown.statusCode).toBe(200);
    const seen = shown.json<{ attribution: string; holidays: Holiday[]; reservations: { totalElements: number; content: { id: string; date: string }[] } }>();
    expect(seen.attribution).toContain('CC BY 3.0');
    expect(seen.holidays.find((holiday) => holiday.date === '2030-01-01')).toEqual({
      date: '2030-01-01',
      name: "New Year's Day",
      status: 'PAST',
      closureId: null,
    });
    expect(seen.holidays.find((holiday) => holiday.date === '2030-05-01')).toMatchObject({ status: 'CLOSED', closureId: ownId });
    expect(seen.holidays.find((holiday) => holiday.date === '2030-04-19')).toMatchObject({ name: 'Good Friday', status: 'NEW' });
    expect(statusOf(seen.holidays, '2031-04-11')).toBe('NEW'); // Good Friday 2031
    expect(statusOf(seen.holidays, '2030-06-20')).toBe('NEW'); // Corpus Christi, Bavaria's
    expect(seen.reservations.totalElements).toBe(1);
    expect(seen.reservations.content[0]).toMatchObject({ id: reservation.json<{ id: string }>().id, date: '2030-04-19' });
    expect(await closureCount()).toBe(1);

    const done = await importing({ ...body, onExisting: 'cancel' });
    expect(done.statusCode).toBe(200);
    const result = done.json<{
      closures: { reason: string; dates: string[]; scope: string; departmentId: string }[];
      holidays: Holiday[];
      cancelled: number;
      kept: number;
    }>();
    expect(result).toMatchObject({ cancelled: 1, kept: 0 });
    const goodFriday = result.closures.find((closure) => closure.reason === 'Good Friday')!;
    expect(goodFriday).toMatchObject({ dates: ['2030-04-19', '2031-04-11'], scope: 'DEPARTMENT', departmentId: munich.departmentId });
    expect(result.closures.find((closure) => closure.reason === "New Year's Day")).toMatchObject({ dates: ['2031-01-01'] });
    expect(result.closures.find((closure) => closure.reason === 'Labour Day')).toMatchObject({ dates: ['2031-05-01'] });
    const newDays = result.holidays.filter((holiday) => holiday.status === 'NEW').length;
    expect(result.closures.flatMap((closure) => closure.dates).length).toBe(newDays);
    expect(await queryRows(db, sql`select id from reservations where id = ${reservation.json<{ id: string }>().id}`)).toEqual([]);
    await drainOutbox(t.app);
    const mail = smtp.mails.slice(before).find((sent) => sent.subject.includes('the office is closed'));
    expect(mail?.to).toBe('alice@example.test');
    expect(mail?.text).toContain('Good Friday');

    const refused = expectProblem(
      await t.request({
        method: 'POST',
        url: '/api/reservation',
        token: aliceToken,
        payload: { deskId: munich.deskId, startTime: '2030-04-22T08:00:00Z', endTime: '2030-04-22T10:00:00Z' },
      }),
      409,
      'CLOSED_DAY',
    );
    expect(refused.closure).toMatchObject({ date: '2030-04-22', reason: 'Easter Monday' });

    const count = await closureCount();
    const again = await importing({ ...body, onExisting: 'cancel' });
    expect(again.statusCode).toBe(200);
    const second = again.json<{ closures: unknown[]; holidays: Holiday[]; cancelled: number }>();
    expect(second.closures).toEqual([]);
    expect(second.cancelled).toBe(0);
    expect(second.holidays.every((holiday) => holiday.status !== 'NEW')).toBe(true);
    expect(await closureCount()).toBe(count);
    await db.execute(sql`delete from closures`);
  });

  it('judges past holidays in the offices’ zones, and a department’s closure does not cover its building', async () => {
    // 13:00 UTC on Good Friday 2030: already the 20th in Auckland, still the 19th in Los Angeles.
    clock.set(new Date('2030-04-19T13:00:00Z'));
    const earlier = admin;
    admin = (await t.login(ADMIN_EMAIL, ADMIN_PASSWORD)).accessToken;
    try {
      const auckland = await office('Pacific/Auckland', { location: 'Harbour', building: 'One' });
      const angeles = await office('America/Los_Angeles');
      const of = async (departmentId: string) =>
        (await preview({ scope: 'DEPARTMENT', departmentId, country: 'NZ', language: 'en', years: [2030] })).json<{ holidays: Holiday[] }>().holidays;
      expect(statusOf(await of(auckland.departmentId), '2030-04-19')).toBe('PAST');
      expect(statusOf(await of(angeles.departmentId), '2030-04-19')).toBe('NEW');

      const imported = await importing({
        scope: 'DEPARTMENT',
        departmentId: auckland.departmentId,
        country: 'NZ',
        language: 'en',
        years: [2030],
        onExisting: 'keep',
      });
      expect(imported.statusCode).toBe(200);
      const building = await preview({ scope: 'BUILDING', location: 'Harbour', building: 'One', country: 'NZ', language: 'en', years: [2030] });
      expect(building.statusCode).toBe(200);
      expect(statusOf(building.json<{ holidays: Holiday[] }>().holidays, '2030-12-25')).toBe('NEW');
      // Everywhere, a date still current somewhere (Los Angeles) is not past.
      const everywhere = await preview({ scope: 'EVERYWHERE', country: 'NZ', language: 'en', years: [2030] });
      expect(statusOf(everywhere.json<{ holidays: Holiday[] }>().holidays, '2030-04-19')).toBe('NEW');
    } finally {
      clock.set(NOW);
      admin = earlier;
      await db.execute(sql`delete from closures`);
    }
  });
});
