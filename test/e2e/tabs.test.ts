import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { insertDeskInNewRoom } from '../helpers/fixtures.js';
import { expectAccessibleAtBothWidths, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

/**
 * One sign-in for every tab of a browser (docs/sessions.md): signed in in one tab, a second tab
 * opened on a calendar event's link is signed in without asking, and both share the one session
 * (the sessions list says so); signing out in one tab signs out the other; signing in again in one
 * tab signs in the one waiting on the sign-in page. The refresh token is out of the scripts'
 * reach (an HttpOnly SameSite=Strict cookie of the refresh path) and the access token is in no
 * storage. axe finds nothing on the pages touched, at 1280 and 390 px.
 */

const PERSON = { firstName: 'Tabea', lastName: 'Tabs', email: 'tabea@example.test', password: 'tabea-password-1' };

describe('one sign-in across the tabs of a browser', () => {
  let app: BrowserApp;
  let userId: string;
  let reservationId: string;

  const api = async (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.server.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return response.body ? response.json() : undefined;
  };
  const adminToken = async () => (await api(undefined, 'POST', '/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).accessToken as string;
  /** The person's live sessions, as the sessions list of the API has them. */
  const sessionsOfPerson = async () =>
    (await api(await adminToken(), 'GET', `/api/users/${userId}/sessions`)) as { totalElements: number; content: { id: string }[] };

  beforeAll(async () => {
    app = await startBrowserApp({ PASSWORD_CHANGE_AFTER_ADMIN_SET: 'false' });
    const admin = await adminToken();
    const user = await api(admin, 'POST', '/api/users', { email: PERSON.email, firstName: PERSON.firstName, lastName: PERSON.lastName });
    await api(admin, 'PUT', `/api/users/${user.id}/password`, { password: PERSON.password });
    userId = user.id;
    const { desk } = await insertDeskInNewRoom(app.database.handle.db);
    const own = (await api(undefined, 'POST', '/api/auth/login', { email: PERSON.email, password: PERSON.password })) as {
      accessToken: string;
      sessionId: string;
    };
    const start = Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000;
    const booked = await api(own.accessToken, 'POST', '/api/reservation', {
      deskId: desk.id,
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 4 * 3_600_000).toISOString(),
    });
    reservationId = booked.id;
    // The API client signs out again: only the browser's session is counted below.
    await app.server.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${own.accessToken}` } });
  });
  afterAll(async () => {
    await app?.close();
  });

  const signOutIn = async (page: Page) => {
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
  };

  it('signs in once for every tab, shares one session, and signs out everywhere', async () => {
    const first = await app.tab();
    await signIn(first, app.baseUrl, PERSON.email, PERSON.password);
    expect((await sessionsOfPerson()).totalElements).toBe(1);

    // The refresh token is in a cookie no script can read, sent only to the refresh path.
    const cookies = await first.context().cookies();
    expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite, cookie.path, cookie.expires])).toEqual([
      ['deskbook_session', true, 'Strict', '/api/auth/web-session', -1],
    ]);
    expect(await first.evaluate('document.cookie')).toBe('');
    // No token is in any storage either (the language last shown is: docs/i18n.md): no JWT, not the refresh token.
    const stored = String(await first.evaluate('JSON.stringify([...Object.entries(localStorage), ...Object.entries(sessionStorage)])'));
    expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(stored).not.toContain(cookies[0]!.value);

    // A second tab, opened from a calendar event's link, is signed in without asking.
    const second = await app.tabBeside(first);
    const asked: string[] = [];
    second.on('framenavigated', (frame) => {
      if (frame === second.mainFrame() && new URL(frame.url()).pathname === '/sign-in') asked.push(frame.url());
    });
    await second.goto(`${app.baseUrl}/reservations?reservation=${reservationId}`);
    await second.getByRole('heading', { name: 'My reservations' }).waitFor();
    expect(asked).toEqual([]);
    expect(new URL(second.url()).pathname).toBe('/reservations');

    // One session for both tabs, here and in the profile's list.
    const shared = await sessionsOfPerson();
    expect(shared.totalElements).toBe(1);
    await second.goto(`${app.baseUrl}/profile`);
    await second.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    await expect.poll(() => second.locator('li.session').count()).toBe(1);
    await second.locator('li.session').getByText('This device').waitFor();
    await expectAccessibleAtBothWidths(second, 'the profile with the one session of both tabs');

    // Reloading a tab keeps the sign-in and adds no session.
    await first.reload();
    await first.getByRole('heading', { name: 'Find a desk' }).waitFor();
    expect((await sessionsOfPerson()).content.map((session) => session.id)).toEqual(shared.content.map((session) => session.id));

    // Another browser window (another person's cookies) is not signed in.
    const elsewhere = await app.tab();
    await elsewhere.goto(`${app.baseUrl}/profile`);
    await elsewhere.getByRole('heading', { name: 'Sign in' }).waitFor();

    // Signing out in the second tab signs out the first, and ends the session on the server.
    await signOutIn(second);
    await second.getByRole('heading', { name: 'Sign in' }).waitFor();
    await first.getByRole('heading', { name: 'Sign in' }).waitFor();
    await first.getByText('You signed out in another tab.').waitFor();
    await expect.poll(async () => (await sessionsOfPerson()).totalElements).toBe(0);
    await expect.poll(async () => (await first.context().cookies()).length).toBe(0);
    await expectAccessibleAtBothWidths(first, 'the sign-in page after a sign-out in another tab');

    // Signing in again in the first tab signs in the second, which was waiting on the sign-in page.
    await first.getByLabel('E-mail', { exact: true }).fill(PERSON.email);
    await first.getByLabel('Password', { exact: true }).fill(PERSON.password);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByRole('heading', { name: 'Find a desk' }).waitFor();
    await second.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
    expect((await sessionsOfPerson()).totalElements).toBe(1);

    expect(app.problems).toEqual([]);
  });
});
