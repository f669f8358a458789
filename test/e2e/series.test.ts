import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { BROWSER_TIME_ZONE as TIME_ZONE, localIn, openMenu, screenshots, signIn, startBrowserApp, tomorrowIn, type BrowserApp } from '../helpers/browser.js';

const ALICE = { firstName: 'Alice', lastName: 'Lindqvist', email: 'alice.series@example.test', password: 'alice-password-1' };

interface SeriesBody {
  id: string;
  occurrences: { reservationId: string; date: string; startTime: string; endTime: string }[];
}

/**
 * Recurring reservations in a real browser (docs/behaviour.md#recurring-reservations): a user
 * repeats a booking on Tuesdays and Thursdays, sees the dates and the one already taken before
 * booking, books the free ones, finds the series in My reservations and in the week view, and
 * cancels it from its third date on. Screenshots land in docs/screenshots/.
 */
describe('recurring reservations in a browser', () => {
  let app: BrowserApp;
  let adminToken: string;
  let aliceId: string;
  let deskId: string;

  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  beforeAll(async () => {
    app = await startBrowserApp();
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    adminToken = ((await login.json()) as { accessToken: string }).accessToken;
    const department = await api<{ id: string }>('POST', '/api/departments', { location: 'Berlin', building: 'Spree House', floor: 2 });
    const room = await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms`, { name: 'Blue Room' });
    deskId = (await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms/${room.id}/desks`, { name: 'A1' })).id;
    const { password, ...person } = ALICE;
    aliceId = (await api<{ id: string }>('POST', '/api/users', person)).id;
    await api('PUT', `/api/users/${aliceId}/password`, { password });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('books a weekly series on two weekdays, shows it, and cancels it from the third date on', async () => {
    // Someone else already holds the desk on the second Tuesday-or-Thursday from tomorrow.
    const tomorrow = Temporal.PlainDate.from(tomorrowIn(TIME_ZONE));
    const at = (time: string) => tomorrow.toZonedDateTime({ timeZone: TIME_ZONE, plainTime: time }).toInstant().toString();
    const rule = { frequency: 'WEEKLY', weekdays: ['TU', 'TH'], count: 6 };
    const planned = await api<{ occurrences: { startTime: string; endTime: string }[] }>('POST', '/api/reservation/series/preview', {
      deskId,
      startTime: at('09:00'),
      endTime: at('17:00'),
      timeZone: TIME_ZONE,
      rule,
    });
    const taken = planned.occurrences[1]!;
    await api('POST', '/api/reservation', { deskId, startTime: taken.startTime, endTime: taken.endTime });

    const page = await app.tab();
    await signIn(page, app.baseUrl, ALICE.email, ALICE.password);
    await page.getByRole('button', { name: 'Search free desks' }).click();
    await page.getByRole('button', { name: 'Repeat desk A1 in Blue Room on several dates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Repeat: desk A1 in Blue Room' });
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      await dialog.getByLabel(day, { exact: true }).setChecked(day === 'Tuesday' || day === 'Thursday');
    }
    await dialog.getByLabel('Times', { exact: true }).fill('6');
    await dialog.getByRole('button', { name: 'Show the dates' }).click();
    await dialog.getByText('6 dates, 1 of them taken.').waitFor();
    await expect.poll(() => dialog.locator('.series-date.taken').count()).toBe(1);
    await screenshots(page, 'repeat-booking');
    await dialog.getByRole('button', { name: 'Book the 5 free dates' }).click();
    await page.getByText('Booked desk A1 in Blue Room on 5 dates (1 skipped: taken).').waitFor();

    const list = await api<{ content: { id: string; upcoming: number }[] }>('GET', `/api/reservation/series?userId=${aliceId}`);
    expect(list.content).toHaveLength(1);
    const series = await api<SeriesBody>('GET', `/api/reservation/series/${list.content[0]!.id}`);
    expect(series.occurrences).toHaveLength(5);
    expect(series.occurrences.map((o) => o.startTime)).not.toContain(taken.startTime);
    for (const occurrence of series.occurrences) {
      expect(localIn(TIME_ZONE, occurrence.startTime).slice(11)).toBe('09:00');
      expect([2, 4]).toContain(Temporal.PlainDate.from(occurrence.date).dayOfWeek);
    }

    // My reservations: the series, and the week view of the first date.
    await openMenu(page, 'My reservations');
    await page.getByRole('heading', { name: 'My reservations' }).waitFor();
    const repeating = page.getByRole('region', { name: 'Repeating bookings' });
    await repeating.getByText('Every week on Tuesday and Thursday, 6 times, 09:00–17:00').waitFor();
    await repeating.getByText(/^5 coming dates/).waitFor();
    const firstDate = Temporal.PlainDate.from(series.occurrences[0]!.date);
    const thisMonday = tomorrow.subtract({ days: 1 }).subtract({ days: tomorrow.subtract({ days: 1 }).dayOfWeek - 1 });
    const weeksAhead = Math.floor(thisMonday.until(firstDate).days / 7);
    for (let i = 0; i < weeksAhead; i++) await page.getByRole('button', { name: 'Next week' }).click();
    const week = page.getByRole('list', { name: /^My reservations, week of/ });
    await week.getByText('09:00–17:00').first().waitFor();
    await week.getByText('Desk A1').first().waitFor();
    await screenshots(page, 'my-series-and-week');

    // Cancel from the third date on: three of the five go, the first two stay.
    await repeating.getByRole('button', { name: /^Cancel the repeating booking/ }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel a repeating booking' });
    await cancel.getByLabel('Cancel from', { exact: true }).selectOption(series.occurrences[2]!.startTime);
    await cancel.getByRole('button', { name: 'Cancel 3 dates' }).click();
    await page.getByText('Cancelled 3 dates of your repeating booking.').waitFor();
    await repeating.getByText(/^2 coming dates/).waitFor();
    const after = await api<SeriesBody>('GET', `/api/reservation/series/${series.id}`);
    expect(after.occurrences).toEqual(series.occurrences.slice(0, 2));

    expect(app.problems).toEqual([]);
  });
});
