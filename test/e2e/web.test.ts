import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import {
  BROWSER_TIME_ZONE as TIME_ZONE,
  localIn,
  openMenu,
  screenshots,
  signIn as signInAt,
  startBrowserApp,
  tomorrowIn,
  type BrowserApp,
} from '../helpers/browser.js';

const ALICE = { firstName: 'Alice', lastName: 'Lindqvist', email: 'alice@example.test', password: 'alice-password-1' };
const BOB = { firstName: 'Bob', lastName: 'Okafor', email: 'bob@example.test', password: 'bob-password-1', newPassword: 'bob-own-password-2' };

/**
 * The web app in a real browser (Debian's Chromium, headless) against a real server on a fresh
 * database: an admin sets up an office and two users, one of whom must first choose his own
 * password, one user books a desk that the other one then loses, the booker reports a broken docking station, the admin sees the report and the
 * statistics. Under `npm run screenshots` it takes the pictures of sign-in, choosing a password and
 * a refused delete; the other pages' pictures come from the seeded office (test/e2e/whole-app.test.ts).
 */
describe('the web app in a browser', () => {
  let app: BrowserApp;
  let baseUrl: string;
  let problems: string[];

  beforeAll(async () => {
    app = await startBrowserApp();
    baseUrl = app.baseUrl;
    problems = app.problems;
  });

  afterAll(async () => {
    await app?.close();
  });

  const tab = () => app.tab();
  const signIn = (page: Page, email: string, password: string) => signInAt(page, baseUrl, email, password);

  /**
   * Until the account has chosen its own password (PUT /api/self/password succeeded), the tab gets
   * what the service answers such an account: 403 PASSWORD_CHANGE_REQUIRED for every operation but
   * reading oneself, changing one's password, one's sessions and signing in or out.
   */
  async function mustChoosePassword(page: Page) {
    let required = true;
    const allowed = (path: string) =>
      /^\/api\/(self|self\/password|settings|sessions\/[^/]+|users\/[^/]+\/sessions|auth\/(login|logout|refresh|web-session|web-session\/refresh))$/.test(path);
    await page.route(`${baseUrl}/api/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (!required || allowed(path)) {
        const response = await route.fetch();
        if (path === '/api/self/password' && response.ok()) required = false;
        return route.fulfill({ response });
      }
      const problem = {
        type: 'urn:deskbook:problem:password_change_required',
        title: 'Choose your own password first',
        status: 403,
        detail: 'Choose your own password first',
        instance: path,
        code: 'PASSWORD_CHANGE_REQUIRED',
        requestId: 'e2e',
      };
      return route.fulfill({ status: 403, contentType: 'application/problem+json', body: JSON.stringify(problem) });
    });
  }

  it('runs the whole booking story', async () => {
    const admin = await tab();
    await admin.goto(`${baseUrl}/`);
    await admin.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshots(admin, 'sign-in');
    await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);

    // The admin sets up an office, a room, a desk with a docking station.
    await openMenu(admin, 'Offices');
    await admin.getByRole('button', { name: 'Add an office' }).click();
    await admin.getByLabel('Location', { exact: true }).fill('Berlin');
    await admin.getByLabel('Building', { exact: true }).fill('Spree House');
    await admin.getByLabel('Floor', { exact: true }).fill('2');
    await admin.getByRole('button', { name: 'Create the office' }).click();
    await admin.getByRole('heading', { name: 'Berlin · Spree House · Floor 2' }).waitFor();

    const picture = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 80, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    await admin.getByLabel('Upload a picture', { exact: true }).setInputFiles({ name: 'floor.png', mimeType: 'image/png', buffer: picture });
    await admin.getByText('The picture has been updated.').waitFor();
    await admin.getByRole('img', { name: 'Picture of Berlin · Spree House · Floor 2' }).waitFor();

    await admin.getByLabel('Room name', { exact: true }).fill('Blue Room');
    await admin.getByRole('button', { name: 'Add the room' }).click();
    await admin.getByText('Room Blue Room has been added.').waitFor();
    await admin.getByRole('link', { name: 'Manage room Blue Room' }).click();
    await admin.getByRole('heading', { name: 'Room Blue Room' }).waitFor();

    await admin.getByLabel('Desk name', { exact: true }).fill('A1');
    await admin.getByRole('button', { name: 'Add the desk' }).click();
    await admin.getByRole('heading', { name: /Desk A1/ }).waitFor();
    await admin.getByRole('button', { name: 'Add equipment to desk A1' }).click();
    await admin.getByLabel('Equipment type', { exact: true }).selectOption('DOCKING_STATION');
    await admin.getByLabel('Equipment name', { exact: true }).fill('Dock D1');
    await admin.getByLabel('Description (optional)', { exact: true }).fill('USB-C, 90 W');
    await admin.getByRole('button', { name: 'Add the equipment' }).click();
    await admin.getByRole('list', { name: 'Equipment of desk A1' }).getByText('Dock D1').waitFor();
    await screenshots(admin, 'admin-room', { pictures: false });

    // Two users, each with a password set by the admin.
    await openMenu(admin, 'Users');
    for (const person of [ALICE, BOB]) {
      await admin.getByRole('button', { name: 'Add a user' }).click();
      const form = admin.getByRole('dialog', { name: 'Add a user' });
      await form.getByLabel('First name', { exact: true }).fill(person.firstName);
      await form.getByLabel('Last name', { exact: true }).fill(person.lastName);
      await form.getByLabel('E-mail', { exact: true }).fill(person.email);
      await form.getByRole('button', { name: 'Add the user' }).click();
      const passwordForm = admin.getByRole('dialog', { name: `Set password for ${person.firstName} ${person.lastName}` });
      await passwordForm.getByLabel('New password', { exact: true }).fill(person.password);
      await passwordForm.getByLabel('Repeat the password', { exact: true }).fill(person.password);
      await passwordForm.getByRole('button', { name: 'Set the password' }).click();
      await admin.getByText(`The password of ${person.firstName} ${person.lastName} has been set.`).waitFor();
    }
    await admin.getByRole('cell', { name: BOB.email }).waitFor();
    await screenshots(admin, 'admin-users', { pictures: false });

    // Bob looks first: desk A1 is free tomorrow 09:00–12:00. His account must first get a password
    // of his own: the service then refuses every other operation with 403 PASSWORD_CHANGE_REQUIRED.
    const tomorrow = tomorrowIn(TIME_ZONE);
    const bob = await tab();
    await mustChoosePassword(bob);
    await bob.goto(`${baseUrl}/`);
    await bob.getByRole('heading', { name: 'Sign in' }).waitFor();
    await bob.getByLabel('E-mail', { exact: true }).fill(BOB.email);
    await bob.getByLabel('Password', { exact: true }).fill(BOB.password);
    await bob.getByRole('button', { name: 'Sign in' }).click();
    await bob.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await screenshots(bob, 'choose-password');
    await bob.getByLabel('Current password', { exact: true }).fill(BOB.password);
    await bob.getByLabel('New password', { exact: true }).fill(BOB.newPassword);
    await bob.getByLabel('Repeat the new password', { exact: true }).fill(BOB.newPassword);
    await bob.getByRole('button', { name: 'Save my password' }).click();
    // Then the page he asked for.
    await bob.getByRole('heading', { name: 'Find a desk' }).waitFor();
    expect(await bob.getByLabel('Date', { exact: true }).inputValue()).toBe(tomorrow);
    expect(await bob.getByLabel('From', { exact: true }).inputValue()).toBe('09:00');
    expect(await bob.getByLabel('To', { exact: true }).inputValue()).toBe('17:00');
    await bob.getByLabel('To', { exact: true }).fill('12:00');
    await bob.getByRole('button', { name: 'Search free desks' }).click();
    await bob.getByRole('button', { name: 'Book desk A1 in Blue Room' }).waitFor();

    // Alice finds it with the docking-station filter and books it.
    const alice = await tab();
    await signIn(alice, ALICE.email, ALICE.password);
    await alice.getByLabel('To', { exact: true }).fill('12:00');
    await alice.getByLabel('Docking station', { exact: true }).check();
    await alice.getByRole('button', { name: 'Search free desks' }).click();
    await alice.getByRole('heading', { name: 'Blue Room' }).waitFor();
    await alice.getByText('Berlin · Spree House · Floor 2').waitFor();
    // The README's pictures of this page show the seeded office (test/e2e/desk-legibility.test.ts).
    await screenshots(alice, 'find-a-desk', { pictures: false });
    await alice.getByRole('button', { name: 'Book desk A1 in Blue Room' }).click();
    await alice.getByText('Booked: desk A1 in Blue Room').waitFor();
    // Booked, the desk leaves the list of free desks.
    await alice.getByText('No desk is free for this time with these filters.').waitFor();

    const booked = await reservations();
    expect(booked.totalElements).toBe(1);
    expect(localIn(TIME_ZONE, booked.content[0]!.startTime)).toBe(`${tomorrow} 09:00`);
    expect(localIn(TIME_ZONE, booked.content[0]!.endTime)).toBe(`${tomorrow} 12:00`);
    expect(booked.content[0]!.startTime).toMatch(/Z$/);

    await alice.getByRole('link', { name: 'See my reservations' }).click();
    await alice.getByRole('heading', { name: 'My reservations' }).waitFor();
    const upcoming = alice.getByRole('region', { name: 'Upcoming' });
    await upcoming.getByText('Desk A1').waitFor();
    await upcoming.getByText(/09:00–12:00/).waitFor();
    await screenshots(alice, 'my-reservations', { pictures: false });

    // Bob still sees the desk as free and tries to book it: he is told it is taken.
    await bob.getByRole('button', { name: 'Book desk A1 in Blue Room' }).click();
    await bob.getByText(/someone else got this desk first/).waitFor();
    await bob.getByText('No desk is free for this time with these filters.').waitFor();
    expect((await reservations()).totalElements).toBe(1);

    // Alice reports the broken docking station from her reservation.
    await upcoming.getByRole('link', { name: 'Report a problem with desk A1' }).click();
    await alice.getByRole('heading', { name: 'Report a problem' }).waitFor();
    const equipment = alice.getByLabel('Equipment (optional)', { exact: true });
    await equipment.locator('option', { hasText: 'Dock D1 (Docking station)' }).waitFor({ state: 'attached' });
    await equipment.selectOption({ label: 'Dock D1 (Docking station)' });
    expect(await alice.getByLabel('Desk', { exact: true }).locator('option:checked').textContent()).toBe('A1');
    await alice.getByLabel('Title', { exact: true }).fill('Docking station broken');
    await alice.getByLabel('What is wrong?', { exact: true }).fill('The dock at A1 gives no picture on either monitor.');
    await alice.getByRole('button', { name: 'Send the report' }).click();
    await alice.getByText('Thank you, your report is saved.', { exact: false }).waitFor();
    await alice.getByRole('region', { name: 'Your reports' }).getByText('Docking station broken').waitFor();
    await screenshots(alice, 'report-a-problem', { pictures: false });

    await openMenu(alice, 'My reservations');
    await alice.getByRole('heading', { name: 'My reservations' }).waitFor();
    await alice.goto(`${baseUrl}/profile`);
    await alice.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await alice.getByText('This device').waitFor();
    await screenshots(alice, 'profile', { pictures: false });

    // The admin sees the report and the statistics.
    await openMenu(admin, 'Reports');
    const report = admin.getByRole('listitem').filter({ hasText: 'Docking station broken' });
    await report.getByText(`by ${ALICE.firstName} ${ALICE.lastName}`).waitFor();
    await report.getByText('Dock D1 (Docking station)').waitFor();
    await report.getByText('room Blue Room, desk A1').waitFor();
    await screenshots(admin, 'admin-reports', { pictures: false });

    await openMenu(admin, 'Statistics');
    const totals = admin.getByRole('list', { name: 'Totals' });
    await totals.getByText('Reservations').waitFor();
    expect(await totals.getByRole('listitem').filter({ hasText: 'Reservations' }).locator('.total-value').textContent()).toBe('1');
    expect(await totals.getByRole('listitem').filter({ hasText: 'Defect reports' }).locator('.total-value').textContent()).toBe('1');
    const charts = admin.getByRole('img');
    expect(await charts.count()).toBe(3);
    const upcomingChart = admin.getByRole('img', { name: /Reservations per day, 15 days back and 15 ahead/ });
    expect(await upcomingChart.locator('rect').count()).toBe(31);
    const bookedChart = admin.getByRole('img', { name: /Reservations booked per day, last 30 days/ });
    expect(await bookedChart.locator('rect').count()).toBe(30);
    expect(await bookedChart.locator('rect[height]:not([height="0"])').count()).toBe(1);
    await screenshots(admin, 'admin-statistics', { pictures: false });

    // Deleting the office is refused while it holds rooms; the admin is told why and keeps it.
    await openMenu(admin, 'Offices');
    await admin.getByRole('button', { name: 'Delete Berlin · Spree House · Floor 2' }).click();
    const confirm = admin.getByRole('dialog', { name: 'Delete this office?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByText('This office cannot be deleted on its own.').waitFor();
    await confirm.getByRole('button', { name: 'Delete everything under it' }).waitFor();
    await screenshots(admin, 'admin-offices-delete');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await admin.getByRole('link', { name: 'Manage Berlin · Spree House · Floor 2' }).waitFor();

    // Signing out ends the session on the server too.
    await alice
      .getByRole('button', { name: 'Menu' })
      .isVisible()
      .then((visible) => (visible ? alice.getByRole('button', { name: 'Menu' }).click() : undefined));
    await alice.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await alice.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The browser forgets the session once the server has answered the sign-out (the sign-in page
    // may show a moment earlier, when a read already failed with the revoked token): its cookie is cleared.
    await expect.poll(async () => (await alice.context().cookies()).map((cookie) => cookie.name)).toEqual([]);

    expect(problems).toEqual([]);
  });

  let adminToken: string | undefined;
  /** Every reservation, read through the API as the admin (what the database holds). */
  async function reservations(): Promise<{ totalElements: number; content: { startTime: string; endTime: string }[] }> {
    if (!adminToken) {
      const response = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      });
      adminToken = ((await response.json()) as { accessToken: string }).accessToken;
    }
    const response = await fetch(`${baseUrl}/api/reservation`, { headers: { authorization: `Bearer ${adminToken}` } });
    return (await response.json()) as { totalElements: number; content: { startTime: string; endTime: string }[] };
  }
});
