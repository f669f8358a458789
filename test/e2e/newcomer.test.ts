import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { BROWSER_TIME_ZONE, type BrowserApp, expectAccessibleAtBothWidths, signIn, startBrowserApp } from '../helpers/browser.js';

/**
 * What a newcomer meets (issue 26, items 3, 5, 6, 8 and 9), in a real browser on a fresh install:
 * the forced password change after an admin set the password; the empty install's first steps and
 * sample office; the office's time zone proposed from the browser and its settings on its page;
 * unique desk names, several desks at once and a CSV import; messages worded from problem codes;
 * the first admin's own user record and greeting. axe-core (the WCAG 2.0–2.2 A/AA rules) on every
 * page visited, at desktop and phone width. docs/behaviour.md: #passwords-chosen-by-someone-else,
 * #an-empty-install, #office-time-zone, #names-of-rooms-and-desks, #adding-many-desks-at-once, #errors.
 */

// Evaluated (not added as a <script>): the app's Content-Security-Policy rightly refuses inline scripts.
const USER = { email: 'nina@example.test', firstName: 'Nina', lastName: 'New', password: 'set-by-admin-1', own: 'ninas-own-choice-1' };

/** Of a few zones, the one whose local time is earliest now: a walk-in there lasts a while. */
function earliestZone(): string {
  const zones = ['UTC', 'Pacific/Honolulu', 'Asia/Tokyo', 'America/New_York', 'Australia/Sydney'];
  const hourIn = (zone: string) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  return zones.reduce((best, zone) => (hourIn(zone) < hourIn(best) ? zone : best));
}

describe('what a newcomer meets', () => {
  let app: BrowserApp;
  let adminToken: string;

  async function api<T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = adminToken): Promise<T> {
    const response = await app.server.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return (response.body ? response.json() : undefined) as T;
  }

  beforeAll(async () => {
    // The service's default, which the suite otherwise turns off (docs/testing.md#passwords-set-by-tests).
    app = await startBrowserApp({ PASSWORD_CHANGE_AFTER_ADMIN_SET: 'true', WALK_IN_UNTIL: '23:30' });
    const login = await app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    adminToken = login.json<{ accessToken: string }>().accessToken;
  });

  afterAll(async () => {
    expect(app?.problems ?? []).toEqual([]);
    await app?.close();
  });

  it('an empty install: a user is told there is no office; an admin sees the first steps and adds the sample office in the browser’s zone', async () => {
    const nina = await api<{ id: string }>('POST', '/api/users', { email: USER.email, firstName: USER.firstName, lastName: USER.lastName });
    await api('PUT', `/api/users/${nina.id}/password`, { password: USER.password });

    // Item 3: the password the admin typed must be replaced, by another one.
    const user = await app.tab();
    await user.goto(`${app.baseUrl}/`);
    await user.getByLabel('E-mail', { exact: true }).fill(USER.email);
    await user.getByLabel('Password', { exact: true }).fill(USER.password);
    await user.getByRole('button', { name: 'Sign in' }).click();
    await user.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await expectAccessibleAtBothWidths(user, 'Choose your password');
    await user.getByLabel('Current password').fill(USER.password);
    await user.getByLabel('New password', { exact: true }).fill(USER.password);
    await user.getByLabel('Repeat the new password').fill(USER.password);
    await user.getByRole('button', { name: 'Save my password' }).click();
    await user.getByText('Choose a password other than the current one.').waitFor();
    expect((await app.database.handle.db.select({ flag: users.mustChangePassword }).from(users).where(eq(users.id, nina.id)))[0]?.flag).toBe(true);
    await user.getByLabel('New password', { exact: true }).fill(USER.own);
    await user.getByLabel('Repeat the new password').fill(USER.own);
    await user.getByRole('button', { name: 'Save my password' }).click();

    // Item 5, a user: a sentence, not "No desk is free".
    await user.getByRole('heading', { name: 'No offices yet' }).waitFor();
    expect(await user.getByText('No desk is free').count()).toBe(0);
    await expectAccessibleAtBothWidths(user, 'Find a desk without offices (user)');

    // Item 5, the admin: the first steps, and the sample office. Item 9: greeted by a name.
    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.getByRole('heading', { name: 'Set up Deskbook' }).waitFor();
    expect(await admin.locator('.lead').textContent()).toBe('Hello Admin.');
    await expectAccessibleAtBothWidths(admin, 'Find a desk without offices (admin)');
    await admin.getByRole('button', { name: 'Add a sample office' }).click();
    await admin
      .getByRole('heading', { name: /^Sample office/ })
      .first()
      .waitFor();
    // Item 6: the office's time zone, from the browser, on the office's page.
    await admin.getByRole('heading', { name: 'Time zone and check-in' }).waitFor();
    await expect.poll(() => admin.getByLabel('Time zone', { exact: true }).inputValue()).toBe(BROWSER_TIME_ZONE);
    const departments = await api<{ content: { id: string; location: string }[] }>('GET', '/api/departments');
    const sample = departments.content.find((department) => department.location === 'Sample office')!;
    expect((await api<{ timeZone: string }>('GET', `/api/departments/${sample.id}/settings`)).timeZone).toBe(BROWSER_TIME_ZONE);
    await expectAccessibleAtBothWidths(admin, 'the office page');

    // A second office, by hand: the zone is asked for, proposed from the browser.
    await admin.goto(`${app.baseUrl}/admin/departments`);
    await admin.getByRole('button', { name: 'Add an office' }).click();
    const newOffice = admin.getByRole('form', { name: 'New office' });
    await newOffice.getByLabel('Location', { exact: true }).fill('Lisbon');
    await newOffice.getByLabel('Building', { exact: true }).fill('Tejo');
    expect(await newOffice.getByLabel('Time zone', { exact: true }).inputValue()).toBe(BROWSER_TIME_ZONE);
    await expectAccessibleAtBothWidths(admin, 'the offices page with the new office form');
    await newOffice.getByLabel('Time zone', { exact: true }).selectOption('Europe/Lisbon');
    await admin.getByRole('button', { name: 'Create the office' }).click();
    await admin.getByRole('heading', { name: 'Time zone and check-in' }).waitFor();
    const lisbon = (await api<{ content: { id: string; location: string }[] }>('GET', '/api/departments')).content.find((item) => item.location === 'Lisbon')!;
    expect((await api<{ timeZone: string }>('GET', `/api/departments/${lisbon.id}/settings`)).timeZone).toBe('Europe/Lisbon');
    // The user now finds desks.
    await user.reload();
    await user.getByRole('heading', { name: /^Free desks/ }).waitFor();
  });

  it('desks: names unique in a room, the form back to flexible, several at once, a CSV file refused line by line', async () => {
    const departments = await api<{ content: { id: string; location: string; rooms: string[] }[] }>('GET', '/api/departments');
    const sample = departments.content.find((department) => department.location === 'Sample office')!;
    const rooms = await api<{ content: { id: string; name: string }[] }>('GET', `/api/departments/${sample.id}/rooms`);
    const quiet = rooms.content.find((room) => room.name === 'Quiet room')!;
    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.goto(`${app.baseUrl}/admin/departments/${sample.id}/rooms/${quiet.id}`);
    const addOne = admin.getByRole('form', { name: 'Add a desk' });
    await addOne.waitFor();

    await addOne.getByLabel('Desk name').fill('q-1');
    await addOne.getByRole('button', { name: 'Add the desk' }).click();
    await addOne.getByText(/^This name is taken/).waitFor();

    await addOne.getByLabel('Desk name').fill('Q-F');
    await addOne.getByLabel('Desk type').selectOption('FIXED');
    await addOne.getByRole('button', { name: 'Add the desk' }).click();
    await admin.getByRole('heading', { name: /^Desk Q-F/ }).waitFor();
    // The form is reset when the mutation settles, which may come a moment after the list shows the desk.
    await expect.poll(() => addOne.getByLabel('Desk type').inputValue()).toBe('FLEX');

    const many = admin.getByRole('form', { name: 'Add numbered desks' });
    await many.getByLabel('Name before the number').fill('Row ');
    await many.getByLabel('Number of desks').fill('3');
    await many.getByText('Names: Row 1, Row 2, Row 3').waitFor();
    await many.getByRole('button', { name: 'Add 3 desks' }).click();
    await admin.getByText('3 desks have been added.').waitFor();
    await admin.getByRole('heading', { name: /^Desk Row 3/ }).waitFor();

    await admin.getByLabel('Or import a CSV file').setInputFiles({
      name: 'desks.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,type\nC-1,FLEX\n,FLEX\nrow 2,FIXED\n'),
    });
    await admin.getByText('Nothing was added. Line 3: the desk has no name. Line 4: the room already has a desk "Row 2".').waitFor();
    await admin
      .getByLabel('Or import a CSV file')
      .setInputFiles({ name: 'desks.csv', mimeType: 'text/csv', buffer: Buffer.from('name;type\nC-1;\nC-2;FIXED\n') });
    await admin.getByText('2 desks have been added.').waitFor();
    const room = await api<{ desks: { name: string; type: string }[] }>('GET', `/api/departments/${sample.id}/rooms/${quiet.id}`);
    expect(room.desks.map((desk) => `${desk.name} ${desk.type}`)).toEqual([
      'C-1 FLEX',
      'C-2 FIXED',
      'Q-1 FLEX',
      'Q-2 FLEX',
      'Q-3 FLEX',
      'Q-F FIXED',
      'Row 1 FLEX',
      'Row 2 FLEX',
      'Row 3 FLEX',
    ]);
    await expectAccessibleAtBothWidths(admin, 'the room page');
  });

  it('messages: a walk-in while holding a booking, a repeat of too many times; the desk page in the office’s zone', async () => {
    const departments = await api<{ content: { id: string; location: string }[] }>('GET', '/api/departments');
    const sample = departments.content.find((department) => department.location === 'Sample office')!;
    const zone = earliestZone();
    await api('PUT', `/api/departments/${sample.id}/settings`, { timeZone: zone });
    const rooms = await api<{ content: { name: string; desks: { id: string; name: string }[] }[] }>('GET', `/api/departments/${sample.id}/rooms`);
    const open = rooms.content.find((room) => room.name === 'Open space')!;
    const [os1, os2] = [open.desks.find((desk) => desk.name === 'OS-1')!, open.desks.find((desk) => desk.name === 'OS-2')!];
    const nina = (await api<{ content: { id: string; email: string }[] }>('GET', '/api/users?size=100')).content.find((person) => person.email === USER.email)!;
    const now = Date.now();
    await api('POST', '/api/reservation', {
      deskId: os1.id,
      userId: nina.id,
      startTime: new Date(now - 60_000).toISOString(),
      endTime: new Date(now + 3_600_000).toISOString(),
    });

    const user = await app.tab();
    await signIn(user, app.baseUrl, USER.email, USER.own);
    await user.goto(`${app.baseUrl}/d/${os2.id}`);
    await user.getByRole('heading', { name: 'Desk OS-2' }).waitFor();
    const day = await api<{ walkInUntil: string }>('GET', `/api/desks/${os2.id}/day`);
    const until = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }).format(new Date(day.walkInUntil));
    await user.getByText(`This desk is free now, until ${until}.`).waitFor();
    if (zone !== BROWSER_TIME_ZONE) await user.getByText(`Times are the office's local time (${zone}).`).waitFor();
    await expectAccessibleAtBothWidths(user, 'the desk page');
    await user.getByRole('button', { name: 'Book it now' }).click();
    await user.getByText(/^You already have a booking at that time/).waitFor();
    expect(await user.getByText('That time is already booked').count()).toBe(0);

    // The repeat dialog words the service's bound, not Ajv's "count must be <= 260".
    await user.goto(`${app.baseUrl}/`);
    await user
      .getByRole('button', { name: /^Repeat desk/ })
      .first()
      .click();
    const dialog = user.getByRole('dialog');
    await dialog.getByLabel('Times').fill('300');
    await dialog.getByRole('button', { name: 'Show the dates' }).click();
    await dialog.getByText('Please check: Number of times may be at most 260.').waitFor();
    await expectAccessibleAtBothWidths(user, 'the repeat dialog');
  });

  it('the first admin edits their own user record, admin@localhost and all', async () => {
    // The address the service gives the generated first admin, which its own e-mail format refuses.
    await app.database.handle.db.update(users).set({ email: 'admin@localhost' }).where(eq(users.email, ADMIN_EMAIL));
    const admin = await app.tab();
    await signIn(admin, app.baseUrl, 'admin@localhost', ADMIN_PASSWORD);
    await admin.goto(`${app.baseUrl}/admin/users`);
    await admin.getByRole('button', { name: 'Edit Admin Deskbook' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('First name').fill('Ada');
    await dialog.getByLabel('Last name').fill('Lovelace');
    await expectAccessibleAtBothWidths(admin, 'the user dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const self = await app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@localhost', password: ADMIN_PASSWORD } });
    const me = await api<{ firstName: string; email: string }>('GET', '/api/self', undefined, self.json<{ accessToken: string }>().accessToken);
    expect(me).toMatchObject({ firstName: 'Ada', email: 'admin@localhost' });
    // A changed address is checked as before.
    await admin.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    await dialog.getByLabel('E-mail').fill('not an address');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Enter a valid e-mail address, like name@example.com.').waitFor();
  });
});
