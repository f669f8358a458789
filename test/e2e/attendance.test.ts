import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { DESKTOP, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { eq } from 'drizzle-orm';
import { attendance } from '../../src/db/schema.js';
import { insertDepartment, insertDesk, insertReservation, insertRoom } from '../helpers/fixtures.js';

/**
 * Attendance in a real browser (docs/behaviour.md#attendance): a desk's QR page opened signed out
 * leads through sign-in back to the desk, where one tap checks in; a second desk free now is
 * booked on the spot (walk-in); the admin attendance view shows both. Screenshots:
 * docs/screenshots/desk-page-phone.png and attendance-admin-desktop.png.
 */

const PASSWORD = 'password-e2e-1';

/** Of a few zones, the one whose local time is earliest now: a walk-in there lasts a while. */
function earliestZone(): string {
  const zones = ['UTC', 'Pacific/Honolulu', 'Asia/Tokyo', 'America/New_York', 'Australia/Sydney'];
  const hourIn = (zone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  return zones.reduce((best, zone) => (hourIn(zone) < hourIn(best) ? zone : best));
}

describe('attendance in a browser', () => {
  let app: BrowserApp;

  beforeAll(async () => {
    app = await startBrowserApp({ CHECK_IN_REQUIRED: 'true', WALK_IN_UNTIL: '23:30', ATTENDANCE_RELEASE_INTERVAL: '500ms' });
  });

  afterAll(async () => {
    await app?.close();
  });

  async function api(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token: string, payload?: object) {
    const response = await app.server.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  }

  it('checks in from the desk page after signing in, books a free desk on the spot, shows the admin view', async () => {
    const db = app.database.handle.db;
    const login = await app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const adminToken = login.json<{ accessToken: string }>().accessToken;
    const department = await insertDepartment(db, { location: 'Berlin', building: 'Spree', floor: 3 });
    await api('PUT', `/api/departments/${department.id}/settings`, adminToken, { timeZone: earliestZone() });
    // The admin view lists per-person attendance: not in works-council mode, on by default (docs/people.md#works-council-mode).
    await api('PATCH', '/api/organisation/settings', adminToken, { worksCouncilMode: false });
    const room = await insertRoom(db, department.id, { name: 'Lab' });
    const first = await insertDesk(db, room.id, { name: 'L-01' });
    const second = await insertDesk(db, room.id, { name: 'L-02' });
    const third = await insertDesk(db, room.id, { name: 'L-03' });
    const alice = await api('POST', '/api/users', adminToken, { email: 'alice@example.test', firstName: 'Alice', lastName: 'Adams' });
    await app.server.inject({
      method: 'PUT',
      url: `/api/users/${alice.id}/password`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { password: PASSWORD },
    });
    const bob = await api('POST', '/api/users', adminToken, { email: 'bob@example.test', firstName: 'Bob', lastName: 'Brown' });
    await app.server.inject({
      method: 'PUT',
      url: `/api/users/${bob.id}/password`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { password: PASSWORD },
    });
    const carol = await api('POST', '/api/users', adminToken, { email: 'carol@example.test', firstName: 'Carol', lastName: 'Clark' });
    // History for the rates: the past five days, some checked in, the rest released by the loop.
    const now = Date.now();
    const desksOfRoom = [first, second, third];
    for (let day = 1; day <= 5; day++) {
      const start = new Date(Math.floor(now / 86_400_000) * 86_400_000 - day * 86_400_000 + 9 * 3_600_000);
      for (const [index, desk] of desksOfRoom.entries()) {
        const row = await insertReservation(db, {
          userId: [alice.id, bob.id, carol.id][index]!,
          deskId: desk.id,
          startTime: start,
          endTime: new Date(start.getTime() + 3 * 3_600_000),
        });
        if ((day + index) % 3 !== 0) {
          await db.update(attendance).set({ status: 'CHECKED_IN', checkedInAt: start }).where(eq(attendance.reservationId, row.id));
        }
      }
    }
    // Alice's reservation started two minutes ago: check-in is open.
    await api('POST', '/api/reservation', adminToken, {
      deskId: first.id,
      userId: alice.id,
      startTime: new Date(now - 2 * 60_000).toISOString(),
      endTime: new Date(now + 2 * 3_600_000).toISOString(),
    });

    // Signed out, the QR code's page leads to sign-in, and back.
    const page: Page = await app.tab();
    await page.setViewportSize(PHONE);
    await page.goto(`${app.baseUrl}/d/${first.id}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/d/${first.id}`);
    await page.getByLabel('E-mail', { exact: true }).fill('alice@example.test');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Desk L-01' }).waitFor();
    await page.getByRole('button', { name: 'Check in: desk L-01' }).click();
    await page.getByText('Checked in: desk L-01.').waitFor();
    await page.locator('.desk-now [data-status="CHECKED_IN"]').waitFor();
    await screenshot(page, 'desk-page-phone.png');
    // My reservations shows the attendance too.
    await page.goto(`${app.baseUrl}/reservations`);
    await page.getByRole('heading', { name: 'My reservations' }).waitFor();
    await page.locator('.reservation [data-status="CHECKED_IN"]').first().waitFor();

    // Bob, at a desk free now: books it on the spot.
    const bobs = await app.tab();
    await bobs.setViewportSize(PHONE);
    await signIn(bobs, app.baseUrl, 'bob@example.test', PASSWORD);
    await bobs.goto(`${app.baseUrl}/d/${second.id}`);
    await bobs.getByRole('heading', { name: 'Desk L-02' }).waitFor();
    await bobs.getByRole('button', { name: 'Book it now' }).click();
    await bobs.getByText(/Booked and checked in/).waitFor();
    const walkIns = await api('GET', `/api/attendance?deskId=${second.id}&from=${new Date(now).toISOString()}`, adminToken);
    expect(walkIns.content).toEqual([expect.objectContaining({ userId: bob.id, status: 'CHECKED_IN' })]);

    // The admin's view of the office.
    const admin = await app.tab();
    await admin.setViewportSize(DESKTOP);
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.goto(`${app.baseUrl}/admin/attendance`);
    await admin.getByRole('heading', { name: 'Attendance' }).waitFor();
    await admin.getByLabel('Office').selectOption(department.id);
    await admin.getByRole('heading', { name: 'Check-in settings of this office' }).waitFor();
    await admin.getByText('Alice Adams').first().waitFor();
    await admin.getByText('Bob Brown').first().waitFor();
    await admin.locator('[data-status="NO_SHOW"]').first().waitFor();
    await screenshot(admin, 'attendance-admin-desktop.png');

    // The room page offers the label sheet.
    await admin.goto(`${app.baseUrl}/admin/departments/${department.id}/rooms/${room.id}`);
    await admin.getByRole('button', { name: 'Print QR labels' }).waitFor();
    expect(app.problems).toEqual([]);
  });
});
