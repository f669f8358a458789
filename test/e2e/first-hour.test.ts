import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { DESKTOP, PHONE, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { insertDepartment, insertDesk, insertRoom } from '../helpers/fixtures.js';

/**
 * What a newcomer meets (issue 26, items 2 and 7), in a real browser on a service started as a
 * clean clone starts: no PUBLIC_URL, no SMTP_URL.
 *
 * - "Print QR labels" prints the sheet as designed: 12 desks' labels on one A4 page
 *   (docs/behaviour.md#desk-qr-codes), printed to PDF by Chromium.
 * - Admins are warned where QR labels and calendar links are offered that PUBLIC_URL reaches this
 *   machine only (docs/configuration.md#public-url).
 * - Without mail, "Forgot your password?" promises no link and the invitation switch is off
 *   (docs/configuration.md#mail).
 * - A report's status: an admin filters by it and sets it with a note; the reporter sees it
 *   (docs/behaviour.md#report-status).
 * - The API documentation page (Swagger UI, configured and themed).
 * axe-core finds no serious or critical violation on these pages at desktop and phone width.
 */

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'newcomer-password-1';

/** axe-core's serious and critical violations on the page as it is now. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((node) => node.target.join(' ')) })))`)) as {
    id: string;
    impact: string;
    help: string;
    targets: string[];
  }[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
}

/** No serious or critical axe violation at desktop and at phone width. */
async function expectAccessible(page: Page, what: string) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    expect(await axeViolations(page), `${what} at ${size.width} px`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
}

describe('what a newcomer meets', () => {
  let app: BrowserApp;
  let adminToken: string;

  async function api<T>(method: string, url: string, payload?: object, token = adminToken): Promise<T> {
    const response = await app.server.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` }, payload });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return (response.statusCode === 204 ? undefined : response.json()) as T;
  }

  beforeAll(async () => {
    app = await startBrowserApp();
    const login = await app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    adminToken = login.json<{ accessToken: string }>().accessToken;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('prints 12 QR labels on one A4 page, and warns the admin that the codes point at localhost', async () => {
    const db = app.database.handle.db;
    const department = await insertDepartment(db, { location: 'Porto', building: 'Ribeira', floor: 2 });
    const room = await insertRoom(db, department.id, { name: 'Open space' });
    for (let index = 1; index <= 12; index++) await insertDesk(db, room.id, { name: `P-${String(index).padStart(2, '0')}` });

    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.goto(`${app.baseUrl}/admin/departments/${department.id}/rooms/${room.id}`);
    await admin.getByRole('heading', { name: 'Room Open space' }).waitFor();
    const warning = admin.getByRole('status').filter({ hasText: 'PUBLIC_URL' });
    await warning.getByText('only this server itself can open').waitFor();
    expect(await warning.textContent()).toContain('http://localhost:8080');
    await expectAccessible(admin, 'the room page');

    const [sheet] = await Promise.all([app.context.waitForEvent('page'), admin.getByRole('button', { name: 'Print QR labels' }).click()]);
    await sheet.waitForURL(/^blob:/);
    await sheet.waitForLoadState('load');
    await sheet.locator('figure.label').nth(11).waitFor();
    // The stylesheet applied (the blob: copy inherits the app's CSP, which refuses inline styles).
    await sheet.emulateMedia({ media: 'print' });
    const layout = (await sheet.evaluate(`(() => {
      const mm = 96 / 25.4;
      const labels = [...document.querySelectorAll('figure.label')].map((label) => label.getBoundingClientRect());
      const codes = [...document.querySelectorAll('.code svg')].map((code) => code.getBoundingClientRect());
      return { labels: labels.map((r) => ({ top: r.top / mm, bottom: r.bottom / mm, left: r.left / mm, right: r.right / mm })), codeWidth: codes[0].width / mm };
    })()`)) as { labels: { top: number; bottom: number; left: number; right: number }[]; codeWidth: number };
    expect(layout.labels).toHaveLength(12);
    expect(layout.codeWidth).toBeCloseTo(42, 0);
    // Three columns, four rows, all within the first 297 mm.
    expect(new Set(layout.labels.map((label) => Math.round(label.left))).size).toBe(3);
    expect(new Set(layout.labels.map((label) => Math.round(label.top))).size).toBe(4);
    expect(Math.max(...layout.labels.map((label) => label.bottom))).toBeLessThanOrEqual(297);
    const pdf = await sheet.pdf({ format: 'A4', preferCSSPageSize: true });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
    expect(pages).toHaveLength(1);
    await sheet.close();

    // Calendar links: the same warning on the profile page, for admins.
    await admin.goto(`${app.baseUrl}/profile`);
    await admin.getByRole('heading', { name: 'Calendar' }).waitFor();
    await admin.getByRole('status').filter({ hasText: 'Calendar links point at' }).waitFor();
    // Without SMTP the invitation switch is off and says why.
    const invitations = admin.getByLabel('Mail me a calendar invitation when I book, change or cancel a reservation');
    expect(await invitations.isChecked()).toBe(false);
    expect(await invitations.isDisabled()).toBe(true);
    await admin.getByRole('region', { name: 'Calendar' }).getByText('This Deskbook sends no mail').waitFor();
    await expectAccessible(admin, 'the profile page');
    expect(app.problems).toEqual([]);
  });

  it('says that no link will be mailed without SMTP', async () => {
    const page = await app.tab();
    await page.goto(`${app.baseUrl}/forgot-password`);
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByText('This Deskbook cannot send mail').waitFor();
    expect(await page.getByRole('button', { name: 'Send the link' }).count()).toBe(0);
    await expectAccessible(page, 'the forgot-password page');
  });

  it('the API documentation page (Swagger UI) has no serious or critical axe violation, operations and the Authorize dialog open (docs/api.md#the-documentation-page)', async () => {
    const page = await app.tab();
    await page.goto(`${app.baseUrl}/api/docs`);
    await page.locator('.opblock').first().waitFor();
    // An operation with query parameters and one with a body, both tried out: their fields and examples are rendered.
    await page.locator('#operations-Report-get_api_report .opblock-summary-control').click();
    await page.locator('#operations-Report-post_api_report .opblock-summary-control').click();
    while ((await page.getByRole('button', { name: 'Try it out' }).count()) > 0) await page.getByRole('button', { name: 'Try it out' }).first().click();
    await page.getByRole('textbox', { name: 'Request body' }).waitFor();
    await page.locator('pre.microlight[tabindex="0"]').first().waitFor();
    await expectAccessible(page, 'the API documentation');
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    await page.locator('.modal-ux').waitFor();
    await expectAccessible(page, 'the Authorize dialog');
    expect(app.problems).toEqual([]);
  });

  it('the office page: asks for no missing picture, says when there are no desks, takes an SVG plan, and asks before dropping unsaved plan changes', async () => {
    const db = app.database.handle.db;
    const department = await insertDepartment(db, { location: 'Braga', building: 'Sé', floor: 4 });
    const admin = await app.tab();
    const pictureRequests: string[] = [];
    admin.on('request', (request) => {
      if (request.url().endsWith(`/api/departments/${department.id}/image`) && request.method() === 'GET') pictureRequests.push(request.url());
    });
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.goto(`${app.baseUrl}/admin/departments/${department.id}`);
    await admin.getByText('No picture yet.').waitFor();
    await admin.getByText('This office has no desks yet.', { exact: false }).waitFor();
    expect(await admin.getByText('Every desk of this office is on the plan.').count()).toBe(0);
    expect(pictureRequests).toEqual([]);
    await expectAccessible(admin, 'the office page');

    // An SVG floor plan is offered and taken (drawn to a PNG by the service).
    const fileInput = admin.locator('input[type="file"]');
    expect(await fileInput.getAttribute('accept')).toContain('image/svg+xml');
    await admin.getByText('PNG, JPEG, WebP or SVG', { exact: false }).waitFor();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"><rect width="800" height="500" fill="#eef"/><rect x="40" y="40" width="300" height="200" fill="none" stroke="#000"/></svg>';
    await fileInput.setInputFiles({ name: 'plan.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await admin.getByText('The picture has been updated.').waitFor();
    await admin.getByRole('img', { name: 'Picture of Braga · Sé · Floor 4' }).waitFor();

    // A desk to place; placing it makes the plan unsaved.
    const room = await insertRoom(db, department.id, { name: 'Corner' });
    await insertDesk(db, room.id, { name: 'C-1' });
    // Reached from the list of offices, inside the app: the back button then stays in the app (popstate).
    await admin.goto(`${app.baseUrl}/admin/departments`);
    await admin.getByRole('link', { name: 'Braga', exact: true }).click();
    await admin.getByRole('button', { name: 'Place desk C-1 on the plan' }).click();
    await admin.getByText('Unsaved changes').waitFor();
    const questions: string[] = [];
    let answer = false;
    admin.on('dialog', (dialog) => {
      questions.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    // A link: asked, and staying keeps the page and the change.
    await admin.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Offices' }).click();
    expect(questions).toEqual(['The floor plan has unsaved changes. Leave this page and lose them?']);
    expect(new URL(admin.url()).pathname).toBe(`/admin/departments/${department.id}`);
    await admin.getByText('Unsaved changes').waitFor();
    // The back button: asked too, and the address is put back.
    await admin.evaluate('history.back()');
    await expect.poll(() => questions.length).toBe(2);
    expect(questions[1]).toBe(questions[0]);
    await admin.waitForFunction(`location.pathname === '/admin/departments/${department.id}'`);
    await admin.getByText('Unsaved changes').waitFor();
    // Leaving when the person says so.
    answer = true;
    await admin.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Offices' }).click();
    await admin.getByRole('heading', { name: 'Offices' }).waitFor();
    expect(questions).toHaveLength(3);
    expect(pictureRequests.length).toBeGreaterThan(0);
    expect(app.problems).toEqual([]);
  });

  it('a report gets a status: the admin filters by it and sets it with a note, the reporter sees it', async () => {
    const db = app.database.handle.db;
    const department = await insertDepartment(db, { location: 'Faro', building: 'Marina', floor: 1 });
    const room = await insertRoom(db, department.id, { name: 'Quiet room' });
    const desk = await insertDesk(db, room.id, { name: 'Q-1' });
    const { id: userId } = await api<{ id: string }>('POST', '/api/users', { email: 'rita@example.test', firstName: 'Rita', lastName: 'Reis' });
    await api('PUT', `/api/users/${userId}/password`, { password: PASSWORD });

    const rita = await app.tab();
    await signIn(rita, app.baseUrl, 'rita@example.test', PASSWORD);
    await rita.goto(`${app.baseUrl}/report?departmentId=${department.id}&roomId=${room.id}&deskId=${desk.id}`);
    await rita.getByRole('heading', { name: 'Report a problem' }).waitFor();
    await rita.getByLabel('Title').fill('Lamp flickers');
    await rita.getByLabel('What is wrong?').fill('The desk lamp flickers all day.');
    await rita.getByRole('button', { name: 'Send the report' }).click();
    // What really happens: nobody is mailed, the admins see it on their list.
    await rita.getByText('Thank you, your report is saved.', { exact: false }).waitFor();
    expect(await rita.getByText('sent to the office team').count()).toBe(0);
    const mine = rita.getByRole('region', { name: 'Your reports' }).getByRole('listitem').filter({ hasText: 'Lamp flickers' });
    await mine.locator('[data-status="OPEN"]').waitFor();

    const admin = await app.tab();
    await signIn(admin, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.goto(`${app.baseUrl}/admin/reports`);
    await admin.getByRole('heading', { name: 'Defect reports' }).waitFor();
    const report = admin.getByRole('listitem').filter({ hasText: 'Lamp flickers' });
    await report.locator('[data-status="OPEN"]').waitFor();
    await expectAccessible(admin, 'the reports page');
    await report.getByRole('button', { name: 'Change the status of report Lamp flickers' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Status of “Lamp flickers”' });
    await dialog.getByLabel('Status').selectOption('IN_PROGRESS');
    await dialog.getByLabel('Note to the reporter (optional)').fill('A new lamp is on its way.');
    await expectAccessible(admin, 'the status dialog');
    await dialog.getByRole('button', { name: 'Save the status' }).click();
    await admin.getByText('“Lamp flickers” is now in progress.').waitFor();
    await report.locator('[data-status="IN_PROGRESS"]').waitFor();

    // Filtered by status: resolved shows none of it, in progress shows it.
    await admin.getByLabel('Status', { exact: true }).selectOption('RESOLVED');
    await admin.getByRole('button', { name: 'Search' }).click();
    await admin.getByText('No report matches this search.').waitFor();
    await admin.getByLabel('Status', { exact: true }).selectOption('IN_PROGRESS');
    await admin.getByRole('button', { name: 'Search' }).click();
    await report.locator('[data-status="IN_PROGRESS"]').waitFor();

    // The reporter sees the status and the note.
    await rita.reload();
    await mine.locator('[data-status="IN_PROGRESS"]').waitFor();
    await mine.getByText('A new lamp is on its way.').waitFor();
    await expectAccessible(rita, 'the report page');
    expect(app.problems).toEqual([]);
  });
});
