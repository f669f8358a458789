import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { insertReservation } from '../helpers/fixtures.js';
import {
  BROWSER_TIME_ZONE as TIME_ZONE,
  type BrowserApp,
  expectAccessibleAtBothWidths,
  openMenu,
  screenshots,
  signIn,
  startBrowserApp,
  callApi,
} from '../helpers/browser.js';

/**
 * People and privacy in a real browser (docs/people.md): the admin chooses "My teams" on the
 * Privacy page, prints the today's list (every name), creates a lobby display whose page, opened
 * signed out, shows the desks booked without names; a user finds their team mate on Who's in and
 * switches "Book anonymously" on their profile, after which their team mate sees them without a
 * desk. axe-core (WCAG A/AA) finds nothing, and nothing scrolls sideways, at 1280 and 390 px on
 * every page. Under `npm run screenshots` the pages are pictured for the README.
 */

const ALICE = { firstName: 'Alice', lastName: 'Inside', email: 'alice.people@example.test', password: 'alice-password-1' };
const BOB = { firstName: 'Bob', lastName: 'Nearby', email: 'bob.people@example.test', password: 'bob-password-1' };
const CAROL = { firstName: 'Carol', lastName: 'Elsewhere', email: 'carol.people@example.test', password: 'carol-password-1' };

describe('people and privacy in a browser', () => {
  let app: BrowserApp;
  let adminToken: string;
  let departmentId: string;

  const api = <T>(method: string, path: string, body?: unknown, token = adminToken) => callApi<T>(app.baseUrl, token, method, path, body);

  beforeAll(async () => {
    app = await startBrowserApp();
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    adminToken = ((await login.json()) as { accessToken: string }).accessToken;
    departmentId = (await api<{ id: string }>('POST', '/api/departments', { location: 'Berlin', building: 'Spree House', floor: 2 })).id;
    await api('PUT', `/api/departments/${departmentId}/settings`, { timeZone: TIME_ZONE });
    const roomId = (await api<{ id: string }>('POST', `/api/departments/${departmentId}/rooms`, { name: 'Open Space' })).id;
    const team = await api<{ id: string }>('POST', '/api/teams', { name: 'Crew' });
    // Today, all day in the office's zone: booked directly, as the booking rules refuse a start in the past.
    const today = Temporal.Now.plainDateISO(TIME_ZONE);
    const start = new Date(today.toZonedDateTime({ timeZone: TIME_ZONE }).epochMilliseconds);
    const end = new Date(today.add({ days: 1 }).toZonedDateTime({ timeZone: TIME_ZONE }).epochMilliseconds);
    const ids: string[] = [];
    for (const [index, person] of [ALICE, BOB, CAROL].entries()) {
      const { password, ...body } = person;
      const user = await api<{ id: string }>('POST', '/api/users', body);
      await api('PUT', `/api/users/${user.id}/password`, { password });
      const desk = await api<{ id: string }>('POST', `/api/departments/${departmentId}/rooms/${roomId}/desks`, { name: `P${index + 1}` });
      await insertReservation(app.database.handle.db, { userId: user.id, deskId: desk.id, startTime: start, endTime: end });
      ids.push(user.id);
    }
    await api('POST', `/api/teams/${team.id}/members`, { userIds: ids.slice(0, 2) });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('the admin chooses "My teams", prints the today\'s list and sets up a lobby display', async () => {
    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(admin, 'Organisation');
    await admin.getByRole('heading', { name: 'Organisation' }).waitFor();
    expect(await admin.getByRole('radio', { name: /^Nobody/ }).isChecked()).toBe(true);
    await admin.getByRole('radio', { name: /^My teams/ }).click();
    await admin.getByText('Saved. Every page shows it from now on.').waitFor();
    await expect.poll(() => admin.getByRole('radio', { name: /^My teams/ }).isChecked()).toBe(true);
    expect(await admin.getByRole('checkbox', { name: /Attendance as aggregates only/ }).isChecked()).toBe(true);
    await expectAccessibleAtBothWidths(admin, 'the Privacy page');
    expect((await api<{ nameVisibility: string }>('GET', '/api/organisation/settings')).nameVisibility).toBe('teams');

    await openMenu(admin, "Today's list");
    await admin.getByLabel('Office', { exact: true }).selectOption(departmentId);
    await admin.getByRole('cell', { name: 'Inside, Alice' }).waitFor();
    await admin.getByRole('cell', { name: 'Elsewhere, Carol' }).waitFor();
    await admin.getByRole('button', { name: 'Print' }).waitFor();
    await expectAccessibleAtBothWidths(admin, "the Today's list");
    // Printed, the list stands alone: no menu bar, no buttons.
    await admin.emulateMedia({ media: 'print' });
    expect(await admin.locator('.topbar').isVisible()).toBe(false);
    expect(await admin.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    await admin.emulateMedia({ media: 'screen' });
    await screenshots(admin, 'people-today-list');

    await openMenu(admin, 'Lobby displays');
    await admin.getByLabel('Office', { exact: true }).selectOption(departmentId);
    await admin.getByText('This office has no display.').waitFor();
    await admin.getByLabel('Where it hangs').fill('Lobby, ground floor');
    await admin.getByRole('button', { name: 'Create display' }).click();
    const address = await admin.locator('code').textContent();
    expect(address).toMatch(/\/display\/[A-Za-z0-9_-]{43}$/);
    await admin.getByRole('button', { name: 'Revoke the display Lobby, ground floor' }).waitFor();
    await expectAccessibleAtBothWidths(admin, 'the Lobby displays page');

    // The display, signed out: the desks booked, no names (the mode is "My teams", not "Everyone").
    const display = await app.tab();
    await display.goto(`${app.baseUrl}/display/${address!.split('/display/')[1]}`);
    await display.getByRole('heading', { name: /Berlin · Spree House · floor 2/ }).waitFor();
    await display.getByText('booked now').first().waitFor();
    expect(await display.getByText('Alice Inside').count()).toBe(0);
    await expectAccessibleAtBothWidths(display, 'the lobby display');
    await screenshots(display, 'people-lobby-display');
  });

  it("a user finds their team mate on Who's in and books anonymously; the team mate then sees no desk", async () => {
    const alice = await app.tab();
    await signIn(alice, app.baseUrl, ALICE.email, ALICE.password);
    await openMenu(alice, "Who's in");
    await alice.getByRole('heading', { name: "Who's in" }).waitFor();
    await alice.getByLabel('Office', { exact: true }).selectOption(departmentId);
    await alice.getByRole('heading', { name: 'Crew' }).waitFor();
    await alice.getByText('Bob Nearby').first().waitFor();
    // Carol shares no team with Alice: counted, not named.
    await alice.getByText(/3 booked · 0 checked in · 1 without a name shown/).waitFor();
    expect(await alice.getByText('Carol Elsewhere').count()).toBe(0);
    await alice.getByRole('table').getByRole('rowheader', { name: 'Bob Nearby' }).waitFor();
    await expectAccessibleAtBothWidths(alice, "Who's in");
    await screenshots(alice, 'people-whos-in');

    await alice.goto(`${app.baseUrl}/profile`);
    await alice.getByRole('heading', { name: 'Privacy' }).waitFor();
    await alice.getByRole('checkbox', { name: /Book anonymously/ }).click();
    await expect
      .poll(
        async () =>
          (await alice.getByRole('checkbox', { name: /Book anonymously/ }).isChecked()) &&
          !(await alice.getByRole('checkbox', { name: /Book anonymously/ }).isDisabled()),
      )
      .toBe(true);
    await alice.getByLabel('Star a colleague: search').fill('Elsewhere');
    // The search settles before the list follows it.
    await expect
      .poll(() => alice.getByLabel('Star a colleague', { exact: true }).locator('option').allTextContents())
      .toEqual([expect.stringContaining('Carol Elsewhere')]);
    await alice.getByRole('button', { name: 'Star', exact: true }).click();
    await alice.getByRole('button', { name: 'Unstar Carol Elsewhere' }).waitFor();
    await expectAccessibleAtBothWidths(alice, 'the profile with Privacy and Starred colleagues');

    const bob = await app.tab();
    await signIn(bob, app.baseUrl, BOB.email, BOB.password);
    await openMenu(bob, "Who's in");
    await bob.getByLabel('Office', { exact: true }).selectOption(departmentId);
    await bob.getByText('Alice Inside').first().waitFor();
    await bob.getByText('where they sit is not shown').first().waitFor();
    expect(app.problems).toEqual([]);
  });
});
