import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import {
  BROWSER_TIME_ZONE as TIME_ZONE,
  type BrowserApp,
  expectAccessibleAtBothWidths,
  openMenu,
  signIn,
  startBrowserApp,
  tomorrowIn,
  callApi,
} from '../helpers/browser.js';

/**
 * Closures in a real browser (docs/policies.md#closures-and-holidays): an admin closes an office
 * for a day, sees the booking on it before creating the closure, cancels it, and deletes the
 * closure again; a user's Find a desk says the chosen day is closed and why. axe-core (WCAG A/AA)
 * at 1280 and 390 px on the closures page and on Find a desk.
 */

const ALICE = { firstName: 'Alice', lastName: 'Closed', email: 'alice.closures@example.test', password: 'alice-password-1' };

describe('closures in a browser', () => {
  let app: BrowserApp;
  let adminToken: string;
  let deskId: string;

  const api = <T>(method: string, path: string, body?: unknown, token = adminToken) => callApi<T>(app.baseUrl, token, method, path, body);

  beforeAll(async () => {
    app = await startBrowserApp();
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    adminToken = ((await login.json()) as { accessToken: string }).accessToken;
    const department = await api<{ id: string }>('POST', '/api/departments', { location: 'Berlin', building: 'Spree House', floor: 2 });
    await api('PUT', `/api/departments/${department.id}/settings`, { timeZone: TIME_ZONE });
    const room = await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms`, { name: 'Blue Room' });
    deskId = (await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms/${room.id}/desks`, { name: 'A1' })).id;
    const { password, ...person } = ALICE;
    const aliceId = (await api<{ id: string }>('POST', '/api/users', person)).id;
    await api('PUT', `/api/users/${aliceId}/password`, { password });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('an admin previews a closure with the booking on it, cancels it; Find a desk says why the day is closed', async () => {
    const day = Temporal.PlainDate.from(tomorrowIn(TIME_ZONE)).add({ days: 1 });
    const at = (time: string) => day.toZonedDateTime({ timeZone: TIME_ZONE, plainTime: time }).toInstant().toString();
    const aliceToken = (
      (await (
        await fetch(`${app.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: ALICE.email, password: ALICE.password }),
        })
      ).json()) as { accessToken: string }
    ).accessToken;
    await api('POST', '/api/reservation', { deskId, startTime: at('09:00'), endTime: at('17:00') }, aliceToken);

    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(admin, 'Closures');
    await admin.getByRole('heading', { name: 'Closures', level: 1 }).waitFor();
    await admin.getByText('No closure lies ahead.').waitFor();
    await admin.getByLabel('Reason', { exact: true }).fill('Staff outing');
    await admin.getByLabel('Where', { exact: true }).selectOption('DEPARTMENT');
    await admin.getByLabel('Office', { exact: true }).selectOption({ label: 'Berlin · Spree House · Floor 2' });
    await admin.getByLabel('First day', { exact: true }).fill(day.toString());
    await admin.getByRole('button', { name: 'Show the days and bookings' }).click();
    const preview = admin.getByRole('region', { name: /^Closes / });
    await preview.getByText('1 reservation is booked on these days:').waitFor();
    await expect(preview.getByRole('listitem').first().textContent()).resolves.toContain('Alice Closed, desk A1');
    await expectAccessibleAtBothWidths(admin, 'Closures with a preview');
    await preview.getByLabel('Cancel them and tell their owners the reason').check();
    await preview.getByRole('button', { name: 'Create the closure' }).click();
    await admin.getByText(/1 reservation cancelled, 0 kept/).waitFor();
    await admin.getByText('Staff outing', { exact: true }).waitFor();
    expect((await api<{ totalElements: number }>('GET', '/api/reservation?size=5', undefined, aliceToken)).totalElements).toBe(0);

    // A user looking for a desk that day is told why there is none.
    const user = await app.tab();
    await signIn(user, app.baseUrl, ALICE.email, ALICE.password);
    const change = user.getByRole('button', { name: 'Change the search' });
    if (await change.isVisible()) await change.click();
    await user.getByLabel('Date', { exact: true }).fill(day.toString());
    await user.getByRole('button', { name: 'Search free desks' }).click();
    await user.getByText(/is closed in Berlin · Spree House · Floor 2: Staff outing\./).waitFor();
    await expectAccessibleAtBothWidths(user, 'Find a desk on a closed day');

    // Deleting the closure opens the day again.
    await admin.getByRole('button', { name: 'Delete the closure Staff outing' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await admin.getByText('No closure lies ahead.').waitFor();
    expect(app.problems).toEqual([]);
  });

  it('an admin imports next year’s public holidays for an office, with the data’s attribution; importing again finds nothing new', async () => {
    const next = Temporal.Now.plainDateISO(TIME_ZONE).year + 1;
    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(admin, 'Closures');
    await admin.getByRole('button', { name: 'Import public holidays' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Import public holidays' });
    await dialog.getByText('Holiday data: date-holidays (CC BY 3.0)').waitFor();
    await dialog.getByLabel('Where', { exact: true }).selectOption('DEPARTMENT');
    await dialog.getByLabel('Office', { exact: true }).selectOption({ label: 'Berlin · Spree House · Floor 2' });
    await dialog.getByLabel('Country', { exact: true }).selectOption({ label: 'Germany' });
    await dialog.getByLabel('State or province (optional)').selectOption({ label: 'Berlin' });
    await dialog.getByLabel('Names in').selectOption('en');
    await dialog.getByLabel('Years', { exact: true }).selectOption(String(next));
    await dialog.getByRole('button', { name: 'Show the holidays' }).click();
    const preview = dialog.getByRole('region', { name: /holidays to close/ });
    await preview.getByText(/ 25 Dec \d{4}: Christmas Day \(will be closed\)$/).waitFor();
    await expectAccessibleAtBothWidths(admin, 'Import public holidays with a preview');
    await preview.getByRole('button', { name: /^Import \d+ holidays$/ }).click();
    await admin.getByText(/Imported \d+ holidays as \d+ closures\. 0 reservations cancelled, 0 kept\./).waitFor();
    await admin.getByText('Christmas Day', { exact: true }).waitFor();
    const closed = await api<{ days: { reason: string }[] }>('GET', `/api/closures/days?from=${next}-12-20&to=${next}-12-31`);
    expect(closed.days.map((day) => day.reason)).toEqual(['Christmas Day', 'Boxing Day']);

    await admin.getByRole('button', { name: 'Import public holidays' }).click();
    await dialog.getByLabel('Where', { exact: true }).selectOption('DEPARTMENT');
    await dialog.getByLabel('Office', { exact: true }).selectOption({ label: 'Berlin · Spree House · Floor 2' });
    await dialog.getByLabel('Country', { exact: true }).selectOption({ label: 'Germany' });
    await dialog.getByLabel('State or province (optional)').selectOption({ label: 'Berlin' });
    await dialog.getByLabel('Years', { exact: true }).selectOption(String(next));
    await dialog.getByRole('button', { name: 'Show the holidays' }).click();
    await dialog.getByText('Nothing to import: every holiday is already closed or past').waitFor();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    expect(app.problems).toEqual([]);
  });
});
