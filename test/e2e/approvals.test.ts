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
 * Approvals in a real browser (docs/policies.md#approvals): a booking of a room under an approval
 * requirement shows "Awaiting approval" on its owner's My reservations; the admin's navigation
 * counts it, the inbox lists it, and approving it with a note empties the inbox and the count.
 * axe-core (WCAG A/AA) at 1280 and 390 px on the approvals page and My reservations.
 */

const ALICE = { firstName: 'Alice', lastName: 'Waiting', email: 'alice.approvals@example.test', password: 'alice-password-1' };

describe('approvals in a browser', () => {
  let app: BrowserApp;
  let adminToken: string;
  let deskId: string;
  let roomId: string;

  const api = <T>(method: string, path: string, body?: unknown, token = adminToken) => callApi<T>(app.baseUrl, token, method, path, body);
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
    const department = await api<{ id: string }>('POST', '/api/departments', { location: 'Berlin', building: 'Spree House', floor: 4 });
    await api('PUT', `/api/departments/${department.id}/settings`, { timeZone: TIME_ZONE });
    roomId = (await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms`, { name: 'Board Room' })).id;
    deskId = (await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms/${roomId}/desks`, { name: 'B1' })).id;
    const { password, ...person } = ALICE;
    const aliceId = (await api<{ id: string }>('POST', '/api/users', person)).id;
    await api('PUT', `/api/users/${aliceId}/password`, { password });
    await api('POST', '/api/approval-requirements', { scope: 'ROOM', roomId });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('the owner sees "Awaiting approval"; the admin counts, lists and approves it with a note', async () => {
    const day = Temporal.PlainDate.from(tomorrowIn(TIME_ZONE)).add({ days: 1 });
    const at = (time: string) => day.toZonedDateTime({ timeZone: TIME_ZONE, plainTime: time }).toInstant().toString();
    const aliceToken = await tokenOf(ALICE.email, ALICE.password);
    const { id } = await api<{ id: string }>('POST', '/api/reservation', { deskId, startTime: at('09:00'), endTime: at('17:00') }, aliceToken);

    const user = await app.tab();
    await signIn(user, app.baseUrl, ALICE.email, ALICE.password);
    await openMenu(user, 'My reservations');
    await user.getByText('Awaiting approval').waitFor();
    await expectAccessibleAtBothWidths(user, 'My reservations with a booking awaiting approval');
    // Alice may decide nothing: no Approvals link for her.
    expect(
      await user
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /^Approvals/ })
        .count(),
    ).toBe(0);

    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    // The link's name carries the count ("Approvals, 1 waiting"); the badge shows the number.
    const approvalsLink = admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Approvals\s*, 1 waiting$/ });
    await expect(approvalsLink.textContent()).resolves.toContain('1');
    await approvalsLink.click();
    await admin.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await admin.getByText('1 booking awaits a decision.', { exact: false }).waitFor();
    await admin.getByText('Alice Waiting', { exact: true }).waitFor();
    await admin.getByRole('heading', { name: 'Approval requirements' }).waitFor();
    await expectAccessibleAtBothWidths(admin, 'Approvals with a request');
    await admin.getByRole('button', { name: /^Approve Alice Waiting's booking/ }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Note to them (optional)').fill('Enjoy the board room');
    await expectAccessibleAtBothWidths(admin, 'The approve dialog');
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await admin.getByText("Approved: Alice Waiting's booking. They are told by mail.").waitFor();
    await admin.getByText('No booking awaits your approval.').waitFor();
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals', exact: true }).waitFor();
    expect((await api<{ status: string; note: string }>('GET', `/api/reservation/${id}/approval`, undefined, aliceToken)).status).toBe('APPROVED');

    await user.reload();
    await user.getByRole('heading', { name: 'My reservations', level: 1 }).waitFor();
    await user.getByText('Board Room', { exact: false }).first().waitFor();
    expect(await user.getByText('Awaiting approval').count()).toBe(0);

    // Booking the room's desk on Find a desk (tomorrow, 09:00–17:00 by default) says it awaits approval.
    await openMenu(user, 'Find a desk');
    await user.getByRole('button', { name: 'Search free desks' }).click();
    await user.getByRole('button', { name: 'Book desk B1 in Board Room' }).click();
    await user.getByText(/^Booked: desk B1 in Board Room, .* It awaits approval: you will be mailed the decision/).waitFor();
    expect(app.problems).toEqual([]);
  });
});
