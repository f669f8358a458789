import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutPlan, renderPlanImage } from '../../scripts/seed/floor-plan.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import {
  BROWSER_TIME_ZONE as TIME_ZONE,
  type BrowserApp,
  expectAccessibleAtBothWidths,
  openMenu,
  screenshots,
  signIn,
  startBrowserApp,
  tomorrowIn,
} from '../helpers/browser.js';

/**
 * Booking policies in a real browser (docs/policies.md): an admin creates a team's area (two desks
 * of a room, on one weekday) and a weekly limit on the Booking rules page and tests a booking
 * against the rules; a user sees their allowance on Find a desk, is refused in words when over the
 * limit, and sees the other team's desks marked with the reason in the list and on the map
 * (docs/policies.md#why-a-desk-is-not-bookable). axe-core (WCAG A/AA) at 1280 and 390 px.
 */

const ALICE = { firstName: 'Alice', lastName: 'Design', email: 'alice.policies@example.test', password: 'alice-password-1' };
const OFFICE = 'Berlin · Spree House · Floor 2';
const WEEKDAY_WORDS = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];

describe('booking policies in a browser', () => {
  let app: BrowserApp;
  let adminToken: string;
  let aliceId: string;
  const desks = new Map<string, string>();

  async function api<T>(method: string, path: string, body?: unknown, token = adminToken, headers: Record<string, string> = {}): Promise<T> {
    const image = body instanceof Uint8Array;
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': image ? 'image/png' : 'application/json' }), ...headers },
      body: body === undefined ? undefined : image ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  const tokenOf = async (email: string, password: string) =>
    (
      (await (
        await fetch(`${app.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        })
      ).json()) as { accessToken: string }
    ).accessToken;

  beforeAll(async () => {
    app = await startBrowserApp();
    adminToken = await tokenOf(ADMIN_EMAIL, ADMIN_PASSWORD);
    const office = await api<{ id: string }>('POST', '/api/departments', { location: 'Berlin', building: 'Spree House', floor: 2 });
    await api('PUT', `/api/departments/${office.id}/settings`, { timeZone: TIME_ZONE });
    const room = await api<{ id: string }>('POST', `/api/departments/${office.id}/rooms`, { name: 'Open space' });
    for (const name of ['A1', 'A2', 'A3', 'A4'])
      desks.set(name, (await api<{ id: string }>('POST', `/api/departments/${office.id}/rooms/${room.id}/desks`, { name })).id);
    // A plan with the four desks placed, for the map.
    const planRooms = [{ name: 'Open space', desks: 4 }];
    await api('PUT', `/api/departments/${office.id}/image`, await renderPlanImage(OFFICE, planRooms));
    const positions = layoutPlan(planRooms).positions.map(({ room: _room, desk, ...shape }) => ({ deskId: [...desks.values()][desk]!, ...shape }));
    await api('PUT', `/api/departments/${office.id}/floor-plan`, { positions }, adminToken, { 'if-match': '*' });
    const { password, ...person } = ALICE;
    aliceId = (await api<{ id: string }>('POST', '/api/users', person)).id;
    await api('PUT', `/api/users/${aliceId}/password`, { password });
    await api('POST', '/api/teams', { name: 'Sales' });
    const design = await api<{ id: string }>('POST', '/api/teams', { name: 'Design' });
    await api('POST', `/api/teams/${design.id}/members`, { userIds: [aliceId] });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('an admin adds a team area and a weekly limit; a user sees the allowance, the refusal in words, and the reserved desks', async () => {
    // Tomorrow, the day Find a desk searches first; the area is Sales' on its weekday.
    const day = Temporal.PlainDate.from(tomorrowIn(TIME_ZONE));
    const weekday = WEEKDAY_WORDS[day.dayOfWeek - 1]!;
    const at = (time: string) => day.toZonedDateTime({ timeZone: TIME_ZONE, plainTime: time }).toInstant().toString();

    // ---- the admin: an area of two desks for Sales on that weekday, a limit of 2 bookings a week, a preview
    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(admin, 'Booking rules');
    await admin.getByRole('heading', { name: 'Booking rules', level: 1 }).waitFor();
    const newArea = admin.getByRole('form', { name: 'New area' });
    await newArea.getByLabel('Name', { exact: true }).fill('Sales corner');
    await newArea.getByLabel('What', { exact: true }).selectOption('DESKS');
    await newArea.getByLabel('Office', { exact: true }).selectOption({ label: OFFICE });
    await newArea.getByLabel('Room', { exact: true }).selectOption({ label: 'Open space' });
    await newArea.getByLabel('Desk A3', { exact: true }).check();
    await newArea.getByLabel('Desk A4', { exact: true }).check();
    await newArea.getByLabel('Sales', { exact: true }).check();
    await newArea.getByLabel(weekday, { exact: true }).check();
    await expect(newArea.getByLabel('Only its teams may book there on those days').isChecked()).resolves.toBe(true);
    await newArea.getByRole('button', { name: 'Add area' }).click();
    await admin.getByText('Area Sales corner saved.').waitFor();
    await admin.getByText(`On ${weekday} · Sales · others may not book`).waitFor();

    // Changing it: the form opens on its office, room and desks.
    await admin.getByRole('button', { name: 'Change area Sales corner' }).click();
    const change = admin.getByRole('form', { name: 'Change area Sales corner' });
    await expect(change.getByLabel('Desk A3', { exact: true }).isChecked()).resolves.toBe(true);
    await change.getByRole('button', { name: 'Save area' }).click();
    await admin.getByText('Area Sales corner saved.').waitFor();

    // A second area of the same name is refused in words.
    await newArea.getByLabel('Name', { exact: true }).fill('sales corner');
    await newArea.getByLabel('What', { exact: true }).selectOption('DEPARTMENT');
    await newArea.getByLabel('Office', { exact: true }).selectOption({ label: OFFICE });
    await newArea.getByLabel('Sales', { exact: true }).check();
    await newArea.getByRole('button', { name: 'Add area' }).click();
    await newArea.getByText('Name already used by another area.').waitFor();

    const newRule = admin.getByRole('region', { name: 'Add a rule' });
    await newRule.getByLabel('Limit', { exact: true }).selectOption('MAX_BOOKINGS');
    await newRule.getByLabel('Bookings', { exact: true }).fill('2');
    await newRule.getByLabel('Per', { exact: true }).selectOption('WEEK');
    await newRule.getByLabel('Who', { exact: true }).selectOption('EVERYONE');
    await newRule.getByRole('button', { name: 'Add rule' }).click();
    await newRule.getByText('Rule added.').waitFor();
    await admin.getByText('2 a week').waitFor();

    const preview = admin.getByRole('region', { name: 'Test a booking against the rules' });
    await preview.getByLabel('Person (user id)').fill(aliceId);
    await preview.getByLabel('Desk (desk id)').fill(desks.get('A3')!);
    await preview.getByLabel('Start').fill(`${day.toString()}T09:00`);
    await preview.getByRole('button', { name: 'Test' }).click();
    await preview.getByText(/Refused: Sales corner is reserved for Sales/).waitFor();
    await preview.getByLabel('Desk (desk id)').fill(desks.get('A1')!);
    await preview.getByRole('button', { name: 'Test' }).click();
    await preview.getByText('The rules allow this booking.').waitFor();
    await expectAccessibleAtBothWidths(admin, 'the Booking rules page');
    await screenshots(admin, 'admin-booking-rules');

    // ---- the user: allowance, the reserved desks in the list and on the map, the refusal in words
    const aliceToken = await tokenOf(ALICE.email, ALICE.password);
    const user = await app.tab();
    await signIn(user, app.baseUrl, ALICE.email, ALICE.password);
    const allowance = user.getByRole('region', { name: 'Your booking allowance' });
    await allowance.getByText(/of 2 bookings left this week/).waitFor();
    await allowance.getByText(`Sales corner: reserved for Sales on ${weekday}`).waitFor();
    const a3 = user.locator('li.desk-row').filter({ hasText: 'A3' });
    await a3.getByText(`Not bookable for you: Sales corner: reserved for Sales on ${weekday}.`).waitFor();
    await expect(a3.getByRole('button', { name: /^Book / }).count()).resolves.toBe(0);
    await user.getByRole('button', { name: 'Book desk A1 in Open space' }).waitFor();
    await expectAccessibleAtBothWidths(user, 'Find a desk with the allowance and reserved desks');
    await screenshots(user, 'find-a-desk-allowance');

    // Two bookings that day (before the searched hours) use up the week.
    await api('POST', '/api/reservation', { deskId: desks.get('A1'), startTime: at('07:00'), endTime: at('08:00') }, aliceToken);
    await api('POST', '/api/reservation', { deskId: desks.get('A2'), startTime: at('08:00'), endTime: at('09:00') }, aliceToken);
    await user.getByRole('button', { name: 'Search free desks' }).click({ force: true });
    await user.getByRole('button', { name: 'Book desk A1 in Open space' }).click();
    await user.getByText('You have booked 2 of your 2 bookings this week.').waitFor();

    // The map: its own fill and letter, a legend entry, the reason in the name and in the dialog.
    await user.getByRole('button', { name: 'Map', exact: true }).click();
    const map = user.getByRole('group', { name: /^Floor plan, / });
    await map.locator('g.plan-desk').first().waitFor();
    await user.getByRole('list', { name: 'Legend' }).getByText('Reserved for a team').waitFor();
    const reserved = map.locator('g.plan-desk-reserved');
    await expect(reserved.count()).resolves.toBe(2);
    await expect(reserved.first().getAttribute('aria-label')).resolves.toMatch(/not bookable for you \(Sales corner: reserved for Sales on \w+\)/);
    await map.getByRole('button', { name: /^Desk A3, Open space: not bookable for you/ }).click();
    const dialog = user.getByRole('dialog', { name: 'Desk A3 is not bookable for you' });
    await dialog.getByText(`not for you: Sales corner: reserved for Sales on ${weekday}.`, { exact: false }).waitFor();
    await expectAccessibleAtBothWidths(user, 'the dialog of a reserved desk');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expectAccessibleAtBothWidths(user, 'the map with reserved desks');
    expect(app.problems.filter((problem) => !problem.includes('POLICY_LIMIT_REACHED'))).toEqual([]);
  });
});
