import { Temporal } from 'temporal-polyfill';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDesk, insertDeskInNewRoom } from '../helpers/fixtures.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { DESKTOP, PHONE, openMenu, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

/**
 * Teams and booking for someone else in the browser (docs/policies.md#teams,
 * docs/policies.md#booking-for-someone-else): an admin creates a team on the Teams page and adds a
 * manager and a member; the manager sees the team on their profile and books a desk for the member
 * with "Book for…" on Find a desk; the reservation is the member's; an admin assigns a FIXED desk
 * to the member from the room's admin page. axe-core finds nothing on the Teams page, its members
 * dialog, Find a desk with "Book for…", the profile and the room page at 1280 and 390 px.
 */

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const MANAGER = { firstName: 'Maren', lastName: 'Manager', email: 'maren@example.test', password: 'maren-password-1' };
const MEMBER = { firstName: 'Milo', lastName: 'Member', email: 'milo@example.test', password: 'milo-password-1' };

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
    .then((result) => result.violations.map((v) => v.impact + ' ' + v.id + ': ' + v.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')))`)) as string[];
  return found;
}

/** axe at desktop and phone width, back to desktop after. */
async function expectAxeClean(page: Page, what: string) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    expect(await axeViolations(page), `${what} at ${size.width} px`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
}

describe('teams and booking for someone else in the browser', () => {
  let app: BrowserApp;
  const ids: Record<string, string> = {};

  const api = async (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.server.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return response.body ? response.json() : undefined;
  };

  beforeAll(async () => {
    app = await startBrowserApp({ PASSWORD_CHANGE_AFTER_ADMIN_SET: 'false' });
    const admin = (await api(undefined, 'POST', '/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).accessToken as string;
    for (const person of [MANAGER, MEMBER]) {
      const user = await api(admin, 'POST', '/api/users', { email: person.email, firstName: person.firstName, lastName: person.lastName });
      await api(admin, 'PUT', `/api/users/${user.id}/password`, { password: person.password });
      ids[person.email] = user.id;
    }
    const place = await insertDeskInNewRoom(app.database.handle.db);
    await insertDesk(app.database.handle.db, place.room.id, { name: 'T2' });
    await insertDesk(app.database.handle.db, place.room.id, { name: 'F1', type: 'FIXED' });
    ids.room = `/admin/departments/${place.department.id}/rooms/${place.room.id}`;
    // The office is in Auckland, the browser in Berlin: a FIXED assignment takes the office's days.
    await api(admin, 'PUT', `/api/departments/${place.department.id}/settings`, { timeZone: 'Pacific/Auckland' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('an admin creates a team and gives it a manager and a member on the Teams page', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(page, 'Teams');
    await page.getByRole('heading', { name: 'Teams' }).waitFor();
    await page.getByRole('button', { name: 'Add a team' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Sales');
    await page.getByLabel('Description').fill('The sales floor');
    await page.getByLabel('Single sign-on group').fill('sales');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The team Sales has been added.').waitFor();
    await expectAxeClean(page, 'the Teams page');

    await page.getByRole('button', { name: 'Members of Sales' }).click();
    for (const person of [MANAGER, MEMBER]) {
      await page.getByLabel('Person to add: search').fill(person.lastName);
      await page.getByLabel('Person to add', { exact: true }).selectOption({ label: `${person.firstName} ${person.lastName} (${person.email})` });
      await page.getByRole('button', { name: 'Add to the team' }).click();
      await page.getByRole('cell', { name: new RegExp(person.email) }).waitFor();
    }
    await page.getByRole('button', { name: `Make manager: ${MANAGER.firstName} ${MANAGER.lastName}` }).click();
    await page.getByRole('button', { name: `Make member: ${MANAGER.firstName} ${MANAGER.lastName}` }).waitFor();
    // Only the two added are members: the picker added whom it showed.
    expect(await page.getByRole('dialog').getByRole('row').count()).toBe(3);
    await expectAxeClean(page, 'the members dialog');
    expect(app.problems).toEqual([]);
  });

  it('the manager sees the team on the profile and books a desk for the member with "Book for…"', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, MANAGER.email, MANAGER.password);
    await page.getByLabel('Book for', { exact: true }).selectOption({ label: `${MEMBER.firstName} ${MEMBER.lastName} (${MEMBER.email})` });
    await page.getByRole('button', { name: /^Book desk T2 in / }).click();
    await page.getByText(`Booked for ${MEMBER.firstName} ${MEMBER.lastName}:`).waitFor();
    await expectAxeClean(page, 'Find a desk with "Book for…"');
    // "Repeat…" books the series for the member too (docs/policies.md#booking-for-someone-else).
    await page
      .getByRole('button', { name: /^Repeat / })
      .first()
      .click();
    const repeat = page.getByRole('dialog', { name: new RegExp(`for ${MEMBER.firstName} ${MEMBER.lastName}$`) });
    await repeat.getByRole('button', { name: 'Show the dates' }).click();
    await repeat.getByRole('button', { name: /^Book (the )?\d+ (free )?dates$/ }).click();
    await page.getByText(new RegExp(`for ${MEMBER.firstName} ${MEMBER.lastName} on \\d+ dates`)).waitFor();

    const token = (await api(undefined, 'POST', '/api/auth/login', { email: MEMBER.email, password: MEMBER.password })).accessToken as string;
    const mine = await api(token, 'GET', '/api/reservation');
    expect(mine.content.length).toBeGreaterThan(1);
    const series = await api(token, 'GET', `/api/reservation/series?userId=${ids[MEMBER.email]}`);
    expect(series.totalElements).toBe(1);
    expect(mine.content[0].userId).toBe(ids[MEMBER.email]);
    const byOthers = await api(token, 'GET', '/api/self/booked-by-others');
    expect(byOthers[0].bookedBy.firstName).toBe(MANAGER.firstName);

    await page.goto(`${app.baseUrl}/profile`);
    await page.getByRole('heading', { name: 'Your teams' }).waitFor();
    await page.getByText('Sales').first().waitFor();
    await page.getByRole('heading', { name: 'Delegates' }).waitFor();
    await expectAxeClean(page, 'the profile');

    // The member sees on My reservations who booked it for them.
    const member = await app.tab();
    await signIn(member, app.baseUrl, MEMBER.email, MEMBER.password);
    await member.goto(`${app.baseUrl}/reservations`);
    await member.getByText(`Booked for you by ${MANAGER.firstName} ${MANAGER.lastName}`).first().waitFor();
    await expectAxeClean(member, 'My reservations with a booking made for the member');
    expect(app.problems).toEqual([]);
  });

  it('an admin assigns a FIXED desk to a person from the desk admin page', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto(`${app.baseUrl}${ids.room}`);
    await page.getByRole('button', { name: 'Assign desk F1' }).click();
    // A day of the office (Auckland) after the member's weekly series (8 weeks from tomorrow) ends.
    const day = Temporal.Now.plainDateISO('Pacific/Auckland').add({ days: 60 });
    await page.getByLabel('First day', { exact: true }).fill(day.toString());
    await page.getByLabel('Last day', { exact: true }).fill(day.toString());
    await page.getByLabel('Assign to: search').fill(MEMBER.lastName);
    await page.getByLabel('Assign to', { exact: true }).selectOption({ label: `${MEMBER.firstName} ${MEMBER.lastName} (${MEMBER.email})` });
    await page.getByRole('button', { name: 'Assign the desk' }).click();
    await page.getByText('Desk F1 is assigned from').waitFor();
    await expectAxeClean(page, 'the room page after assigning');
    const token = (await api(undefined, 'POST', '/api/auth/login', { email: MEMBER.email, password: MEMBER.password })).accessToken as string;
    const fixed = await api(token, 'GET', '/api/reservation?type=fixed');
    expect(fixed.content).toHaveLength(1);
    expect(fixed.content[0].userId).toBe(ids[MEMBER.email]);
    // The whole day in the office's zone (docs/behaviour.md#office-time-zone), not the browser's.
    expect(new Date(fixed.content[0].startTime).getTime()).toBe(day.toZonedDateTime({ timeZone: 'Pacific/Auckland' }).epochMilliseconds);
    expect(new Date(fixed.content[0].endTime).getTime()).toBe(day.add({ days: 1 }).toZonedDateTime({ timeZone: 'Pacific/Auckland' }).epochMilliseconds);
    expect(app.problems).toEqual([]);
  });
});
