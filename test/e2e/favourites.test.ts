import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentSettings } from '../../src/db/schema.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { BROWSER_TIME_ZONE, dayIn, expectAccessibleAtBothWidths, screenshots, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { insertDepartment, insertDesk, insertReservation, insertRoom } from '../helpers/fixtures.js';

/**
 * Favourites and book near my team on Find a desk (docs/favourites.md): the page opens on the
 * person's home office and usual hours; a desk is starred and "Favourites first" lists it first;
 * "Near my team" ranks the desks beside a teammate's booking and says why in counts; "Book my
 * usual…" previews the coming week from this one and books it; the map marks the starred desk and
 * its booking dialog has the star. axe-core finds nothing on the page with the ranking, the map's
 * dialog, the Book my usual dialog and the profile's booking defaults at 1280 and 390 px.
 */

const FAY = { firstName: 'Fay', lastName: 'Favourite', email: 'fay@example.test', password: 'fay-password-1' };
const MIA = { firstName: 'Mia', lastName: 'Mate', email: 'mia@example.test', password: 'mia-password-1' };
const ZONE = BROWSER_TIME_ZONE;

/** The instant of a local date and time in the browser's (and the office's) zone. */
const at = (date: string, time: string) => new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: ZONE, plainTime: time }).epochMilliseconds);

describe('favourites, home office, near my team and book my usual in the browser', () => {
  let app: BrowserApp;
  const ids: Record<string, string> = {};
  let fayToken: string;

  const api = async (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.server.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return response.body ? response.json() : undefined;
  };

  beforeAll(async () => {
    app = await startBrowserApp({ PASSWORD_CHANGE_AFTER_ADMIN_SET: 'false' });
    const db = app.database.handle.db;
    const admin = (await api(undefined, 'POST', '/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).accessToken as string;
    for (const person of [FAY, MIA]) {
      const user = await api(admin, 'POST', '/api/users', { email: person.email, firstName: person.firstName, lastName: person.lastName });
      await api(admin, 'PUT', `/api/users/${user.id}/password`, { password: person.password });
      ids[person.email] = user.id;
    }
    const team = await api(admin, 'POST', '/api/teams', { name: 'Sales' });
    await api(admin, 'POST', `/api/teams/${team.id}/members`, { userIds: [ids[FAY.email], ids[MIA.email]] });
    const berlin = await insertDepartment(db, { location: 'Berlin', building: 'Spree House', floor: 3 });
    await insertDepartment(db, { location: 'Munich', building: 'Isar', floor: 1 });
    await db.insert(departmentSettings).values({ departmentId: berlin.id, timeZone: ZONE });
    const atlas = await insertRoom(db, berlin.id, { name: 'Atlas' });
    const borealis = await insertRoom(db, berlin.id, { name: 'Borealis' });
    for (const name of ['A1', 'A2', 'A3']) ids[name] = (await insertDesk(db, atlas.id, { name })).id;
    ids.B1 = (await insertDesk(db, borealis.id, { name: 'B1' })).id;
    // The desks on the office's plan, for the map.
    const positions = ['A1', 'A2', 'A3', 'B1'].map((name, i) => ({ deskId: ids[name], x: 0.05 + i * 0.22, y: 0.4, width: 0.15, height: 0.15, rotation: 0 }));
    const placed = await app.server.inject({
      method: 'PUT',
      url: `/api/departments/${berlin.id}/floor-plan`,
      payload: { positions },
      headers: { authorization: `Bearer ${admin}`, 'if-match': '*' },
    });
    expect(placed.statusCode, placed.body).toBe(200);
    // Mia sits in Atlas tomorrow.
    const tomorrow = dayIn(ZONE, 1);
    await insertReservation(db, { userId: ids[MIA.email]!, deskId: ids.A1!, startTime: at(tomorrow, '09:00'), endTime: at(tomorrow, '17:00') });
    // Fay's week: Monday of this week, 09:00–17:00 at A2 (written directly: it may lie in the past).
    const today = Temporal.PlainDate.from(dayIn(ZONE, 0));
    const monday = today.subtract({ days: today.dayOfWeek - 1 }).toString();
    await insertReservation(db, { userId: ids[FAY.email]!, deskId: ids.A2!, startTime: at(monday, '09:00'), endTime: at(monday, '17:00') });
    fayToken = (await api(undefined, 'POST', '/api/auth/login', { email: FAY.email, password: FAY.password })).accessToken as string;
    await api(fayToken, 'PUT', '/api/self/booking-defaults', { homeDepartmentId: berlin.id, window: 'HOURS', startTime: '08:00', endTime: '12:00' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('opens on the home office and usual hours, stars a desk, lists favourites first and ranks desks near the team with why', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, FAY.email, FAY.password);
    // The home office preselected, the window prefilled (docs/favourites.md#home-office-and-default-window).
    expect(await page.getByLabel('Location').inputValue()).toBe('Berlin');
    expect(await page.getByLabel('Building').inputValue()).toBe('Spree House');
    expect(await page.getByLabel('Floor').inputValue()).toBe('3');
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('08:00');
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('12:00');
    await page.getByRole('heading', { name: /Free desks, .*08:00–12:00/ }).waitFor();

    // Star A3 (docs/favourites.md#favourite-desks).
    const star = page.getByRole('button', { name: 'Favourite: desk A3 in Atlas' });
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await page.locator('button[aria-label="Favourite: desk A3 in Atlas"][aria-pressed="true"]').waitFor();
    await page.getByLabel('Order').selectOption('FAVOURITES');
    expect(await page.locator('.desk-row .desk-name').first().textContent()).toBe('A3');

    // Near my team: Mia is in Atlas tomorrow (docs/favourites.md#book-near-my-team).
    await page.getByLabel('Order').selectOption('NEAR_TEAM');
    const a2 = page.locator('.desk-row', { has: page.locator('.desk-name', { hasText: 'A2' }) });
    await a2.getByText('1 of Sales is in Atlas').waitFor();
    const b1 = page.locator('.desk-row', { has: page.locator('.desk-name', { hasText: 'B1' }) });
    await b1.getByText('1 of Sales is in Berlin · Spree House, floor 3').waitFor();
    // Nobody is named.
    expect(await page.locator('.results').textContent()).not.toContain('Mia');
    await expectAccessibleAtBothWidths(page, 'Find a desk near my team, with a starred desk');
    await screenshots(page, 'find-a-desk-near-my-team');

    // The map marks the starred desk, and its booking dialog has the same star.
    await page.getByRole('button', { name: 'Map', exact: true }).click();
    const map = page.getByRole('group', { name: /^Floor plan, / });
    await map.getByRole('button', { name: /^Desk A3 \(a favourite\), Atlas: free/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Book desk A3' });
    expect(await dialog.getByRole('button', { name: 'Favourite: desk A3 in Atlas' }).getAttribute('aria-pressed')).toBe('true');
    await expectAccessibleAtBothWidths(page, 'the map’s booking dialog with its star');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(app.problems).toEqual([]);
  });

  it('"Book my usual…" previews the coming week from this one and books it', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, FAY.email, FAY.password);
    await page.getByRole('button', { name: 'Book my usual…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Book my usual' });
    await dialog.getByText('1 of 1 day is free.').waitFor();
    await dialog.getByText('desk A2 in Atlas').waitFor();
    await expectAccessibleAtBothWidths(page, 'the Book my usual dialog');
    await screenshots(page, 'book-my-usual');
    await dialog.getByRole('button', { name: 'Book the 1 free day' }).click();
    await dialog.getByText('Booked 1 day.').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Booked your usual week: 1 day.').waitFor();

    const today = Temporal.PlainDate.from(dayIn(ZONE, 0));
    const nextMonday = today.add({ days: 8 - today.dayOfWeek }).toString();
    const mine = await api(fayToken, 'GET', `/api/reservation?userId=${ids[FAY.email]}&size=50`);
    const starts = (mine.content as { deskId: string; startTime: string }[]).filter((r) => r.deskId === ids.A2).map((r) => r.startTime);
    expect(starts).toContain(at(nextMonday, '09:00').toISOString());
    expect(app.problems).toEqual([]);
  });

  it('the profile holds the booking defaults', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, FAY.email, FAY.password);
    await page.goto(`${app.baseUrl}/profile`);
    const section = page.getByRole('region', { name: 'Booking defaults' });
    await section.getByLabel('Usual hours').waitFor();
    expect(await section.getByLabel('Usual hours').inputValue()).toBe('HOURS');
    expect(await section.getByLabel('From').inputValue()).toBe('08:00');
    await section.getByLabel('Usual hours').selectOption('WHOLE_DAY');
    await section.getByRole('button', { name: 'Save booking defaults' }).click();
    await section.getByText('Saved: Find a desk opens on them.').waitFor();
    await expectAccessibleAtBothWidths(page, 'the profile with booking defaults');
    expect((await api(fayToken, 'GET', '/api/self/booking-defaults')).window).toBe('WHOLE_DAY');
    expect(app.problems).toEqual([]);
  });
});
