import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededUserEmail } from '../../scripts/seed/generate.js';
import { PROFILES, SEED_PASSWORD, seed } from '../../scripts/seed/seed.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import {
  BROWSER_TIME_ZONE,
  DESKTOP,
  PHONE,
  dayIn,
  screenshot,
  sidewaysScroll,
  signIn,
  startBrowserApp,
  TWO_FRAMES,
  type BrowserApp,
} from '../helpers/browser.js';

/**
 * The whole web app on the seeded `small` database (`npm run seed -- --profile small`), in Chromium
 * at 1280 × 800 and at 390 × 844, signed in as an administrator, as a user, and signed out (issue
 * 26, "What a newcomer meets": its whole-app check):
 * - every page of web/src/App.tsx (and the API documentation at /api/docs), and the main dialogs
 *   (booking on the map, repeat, a user's dialog), with the menus open: axe-core's WCAG 2.0, 2.1 and
 *   2.2 A and AA rules find nothing, of any impact; nothing scrolls sideways; no text or
 *   accessible name says "Desk Desk" or "desk Desk" (docs/behaviour.md#what-people-see-of-a-desk);
 * - the menu: the admin pages behind one "Admin" button, opened and closed by keyboard with focus
 *   back on the button, at both widths (docs/behaviour.md#the-menu).
 * Under `npm run screenshots` it takes the README's pictures of the pages it names, from the
 * seeded data (docs/testing.md#screenshots).
 *
 * Nothing is excluded from axe's WCAG rules on the app's pages. On /api/docs (stock Swagger UI),
 * docs/api.md#the-documentation-page leaves three moderate findings as they are: no `main`
 * landmark (landmark-one-main), content outside landmarks (region), headings that skip a level
 * (heading-order). Those are axe's best-practice rules, not WCAG ones; that page is run with the
 * best-practice rules too, and exactly those three are excluded there.
 */

// Evaluated (not added as a <script>): the app's Content-Security-Policy refuses inline scripts.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const API_DOCS_EXCLUDED = ['landmark-one-main', 'region', 'heading-order'];
const PERSON = { email: seededUserEmail(0), password: SEED_PASSWORD };

/** How the web app names a floor (web/src/lib/labels.ts, floorLabel). */
const floorLabel = (floor: number) => (floor === 0 ? 'Ground floor' : floor < 0 ? `Basement ${-floor}` : `Floor ${floor}`);

/** axe-core's violations on the page as it is now, every impact, less the rules `excluded`. */
async function axeViolations(page: Page, tags: string[], excluded: string[]): Promise<string[]> {
  await page.evaluate(AXE);
  const found = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(tags)} }, resultTypes: ['violations'] })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((node) => node.target.join(' ')) })))`)) as {
    id: string;
    impact: string;
    help: string;
    targets: string[];
  }[];
  return found.filter((v) => !excluded.includes(v.id)).map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
}

/** The page's text and the names given in attributes, to look for "Desk Desk". */
const NAMES = `[document.body.innerText, ...[...document.querySelectorAll('[aria-label], [title], [alt]')].flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('alt')])].filter(Boolean).join('\\n')`;

/** Waits until the page shows no spinner (every query it started has answered). */
async function settled(page: Page) {
  await expect.poll(() => page.locator('.loading, .spinner').count(), { timeout: 20_000 }).toBe(0);
  await page.evaluate(TWO_FRAMES);
}

interface Check {
  /** Run axe's best-practice rules too, less these (the API documentation only). */
  bestPracticeExcept?: string[];
  /** Under `npm run screenshots`: docs/screenshots/`picture`-desktop.png and -phone.png. */
  picture?: string;
}

describe('the whole web app on the seeded office, at 1280 px and 390 px', () => {
  let app: BrowserApp;
  let adminToken: string;
  const ids = { departmentId: '', roomId: '', deskId: '' };
  let office = { location: '', building: '', floor: 0 };
  const closedDay = dayIn(BROWSER_TIME_ZONE, 40);
  /** What each check found, by page and width: expected empty. */
  const findings: Record<string, string[]> = {};

  /** axe, sideways scrolling and "Desk Desk" on what the page shows now, at both widths; ends at desktop width. */
  async function check(page: Page, what: string, options: Check = {}) {
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.evaluate(TWO_FRAMES);
      const where = `${what} at ${size.width} px`;
      const problems = await axeViolations(page, WCAG_TAGS, []);
      if (options.bestPracticeExcept) problems.push(...(await axeViolations(page, ['best-practice'], options.bestPracticeExcept)));
      const sideways = await sidewaysScroll(page);
      if (sideways.px > 0) problems.push(`scrolls sideways by ${sideways.px} px: ${JSON.stringify(sideways.culprits)}`);
      const doubled = /\bdesk desk\b.*/i.exec(String(await page.evaluate(NAMES)));
      if (doubled) problems.push(`says "${doubled[0]}"`);
      if (problems.length > 0) findings[where] = problems;
      if (options.picture) await screenshot(page, `${options.picture}-${size === DESKTOP ? 'desktop' : 'phone'}.png`);
    }
    await page.setViewportSize(DESKTOP);
    await page.evaluate(TWO_FRAMES);
  }

  /** Opens a page of the app by its address and checks it once its heading shows and its data has come. */
  async function visit(page: Page, path: string, heading: string | RegExp, options: Check = {}) {
    await page.goto(`${app.baseUrl}${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await settled(page);
    await check(page, path, options);
  }

  async function api<T>(method: string, path: string, body?: object): Promise<T> {
    const response = await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  beforeAll(async () => {
    // Seeded people have reservations of their own; the booking dialog books beside them.
    app = await startBrowserApp({ RESERVATION_ONE_PER_USER: 'false' });
    await seed(app.database.handle, { sizes: PROFILES.small, seed: 1 });
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    adminToken = ((await login.json()) as { accessToken: string }).accessToken;
    const department = (await api<{ content: { id: string; location: string; building: string; floor: number }[] }>('GET', '/api/departments?size=1'))
      .content[0]!;
    office = department;
    const desks = await api<{ content: { deskId: string; roomId: string }[] }>('GET', `/api/departments/${department.id}/desk-equipment?size=1000`);
    ids.departmentId = department.id;
    ids.roomId = desks.content[0]!.roomId;
    ids.deskId = desks.content[0]!.deskId;
    // The Closures page lists one closure ahead (the seed makes none).
    await api('POST', '/api/closures', {
      scope: 'DEPARTMENT',
      departmentId: department.id,
      reason: 'Move to the new floor',
      dates: [closedDay],
      onExisting: 'keep',
    });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it('signed out: sign-in, forgot and reset password, the API documentation', async () => {
    const page = await app.tab();
    await visit(page, '/', 'Sign in');
    await visit(page, '/forgot-password', 'Forgot your password?');
    await visit(page, '/reset-password', 'Choose a new password');
    await visit(page, '/reset-password?token=not-a-real-one', 'Choose a new password');
    await page.goto(`${app.baseUrl}/api/docs`);
    await page.locator('.opblock').first().waitFor();
    await check(page, '/api/docs', { bestPracticeExcept: API_DOCS_EXCLUDED });
    expect(findings).toEqual({});
    expect(app.problems).toEqual([]);
  });

  it('as a user: every page of theirs, the booking dialog on the map, the repeat dialog, an admin page refused', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, PERSON.email, PERSON.password);
    await settled(page);
    await check(page, '/ (list)');
    const repeat = page.getByRole('button', { name: /^Repeat .* on several dates$/ }).first();
    await repeat.click();
    await page.getByRole('dialog', { name: /^Repeat: / }).waitFor();
    await check(page, 'the repeat dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Map', exact: true }).click();
    const free = page.locator('g.plan-desk[role="button"]').first();
    await free.waitFor();
    await settled(page);
    await check(page, '/ (map)');
    await free.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: /^Book / }).waitFor();
    await settled(page);
    await check(page, 'the booking dialog on the map');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // A closed day in the office: Find a desk says why nothing is free.
    await page.getByRole('button', { name: 'List', exact: true }).click();
    await page.getByLabel('Location', { exact: true }).selectOption({ label: office.location });
    await page.getByLabel('Building', { exact: true }).selectOption({ label: office.building });
    await page.getByLabel('Floor', { exact: true }).selectOption({ label: floorLabel(office.floor) });
    await page.getByLabel('Date', { exact: true }).fill(closedDay);
    await page.getByRole('button', { name: 'Search free desks' }).click();
    await page.getByText(/is closed in .*: Move to the new floor\./).waitFor();
    await settled(page);
    await check(page, '/ (a closed day)', { picture: 'find-a-desk-closed' });

    await visit(page, '/reservations', 'My reservations', { picture: 'my-reservations' });
    await visit(page, '/report', 'Report a problem', { picture: 'report-a-problem' });
    await visit(page, '/profile', 'Profile', { picture: 'profile' });
    await visit(page, `/d/${ids.deskId}`, /^Desk /);
    await visit(page, '/admin/users', 'Administrators only');
    await visit(page, '/no-such-page', 'Page not found');
    // The phone menu open.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Menu' }).click();
    await check(page, 'the phone menu');
    expect(findings).toEqual({});
    expect(app.problems).toEqual([]);
  });

  it('as an administrator: every admin page, the office page with its plan editor, the user dialog', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await settled(page);
    await check(page, '/ (admin)');
    await visit(page, '/admin/departments', 'Offices');
    await visit(page, `/admin/departments/${ids.departmentId}`, /·/, { picture: 'admin-office' });
    // The plan editor's labels fit their desks and stand upright, as the map's do
    // (docs/behaviour.md#desk-labels-and-tap-targets-on-the-map).
    const editorLabels = (await page.evaluate(`[...document.querySelectorAll('svg[aria-label="Floor plan editor"] g.plan-desk')].flatMap((desk) => {
      const text = desk.querySelector('text');
      if (!text) return [];
      const rect = desk.querySelector('rect').getBoundingClientRect();
      const box = text.getBoundingClientRect();
      const m = text.getScreenCTM();
      return [{ text: text.textContent, turn: Math.atan2(m.b, m.a) * 180 / Math.PI, inside: box.left >= rect.left - 0.5 && box.right <= rect.right + 0.5 && box.top >= rect.top - 0.5 && box.bottom <= rect.bottom + 0.5 }];
    })`)) as { text: string; turn: number; inside: boolean }[];
    expect(editorLabels.length, 'the editor labels its desks').toBeGreaterThan(0);
    for (const label of editorLabels) {
      expect(label.inside, `editor label "${label.text}" inside its desk`).toBe(true);
      expect(Math.abs(label.turn), `editor label "${label.text}" upright`).toBeLessThanOrEqual(90.01);
    }
    await visit(page, `/admin/departments/${ids.departmentId}/rooms/${ids.roomId}`, /^Room /, { picture: 'admin-room' });
    await visit(page, '/admin/users', 'Users', { picture: 'admin-users' });
    await page.getByRole('button', { name: 'Add a user' }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'the new-user dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'the user dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: /^Set password for / })
      .first()
      .click();
    await page.getByRole('dialog', { name: /^Set password for / }).waitFor();
    await check(page, 'the password dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await visit(page, '/admin/reports', 'Reports', { picture: 'admin-reports' });
    await page
      .getByRole('button', { name: /^Change the status of report / })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'the report status dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await visit(page, '/admin/stats', 'Statistics', { picture: 'admin-statistics' });
    await visit(page, '/admin/attendance', 'Attendance');
    await visit(page, '/admin/closures', 'Closures', { picture: 'admin-closures' });
    await visit(page, '/admin/teams', 'Teams');
    await visit(page, '/admin/policies', 'Booking rules');
    await visit(page, '/admin/outbox', 'Outbox');
    await visit(page, '/reservations', 'My reservations');
    await visit(page, '/profile', 'Profile');
    // The Admin list open, on a wide screen and in the phone menu.
    await page.getByRole('button', { name: 'Admin', exact: true }).click();
    await check(page, 'the Admin list');
    expect(findings).toEqual({});
    expect(app.problems).toEqual([]);
  });

  it('the menu: admin pages behind the Admin button, opened and closed by keyboard with focus back, at both widths', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const admin = nav.getByRole('button', { name: 'Admin', exact: true });
    const closures = nav.getByRole('link', { name: 'Closures', exact: true });
    const focused = () => page.evaluate(`document.activeElement?.textContent?.trim() ?? ''`);

    // 1280 px: everyone's links, Admin and the account on one line of the bar.
    const middles = (await page.evaluate(
      `['.brand', '.menu-admin-button', '.profile-link'].map((selector) => { const box = document.querySelector(selector).getBoundingClientRect(); return (box.top + box.bottom) / 2; })`,
    )) as number[];
    expect(Math.max(...middles) - Math.min(...middles), `middles of the bar's items at ${JSON.stringify(middles)}`).toBeLessThanOrEqual(4);
    expect(await closures.isVisible()).toBe(false);
    await admin.focus();
    await page.keyboard.press('Enter');
    expect(await admin.getAttribute('aria-expanded')).toBe('true');
    await closures.waitFor();
    await page.keyboard.press('Escape');
    expect(await admin.getAttribute('aria-expanded')).toBe('false');
    expect(await closures.isVisible()).toBe(false);
    expect(await focused()).toBe('Admin');
    // Space opens it too; the arrows walk its links; Enter follows one, which closes it.
    await page.keyboard.press(' ');
    await closures.waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Offices');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Users');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Closures');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Closures' }).waitFor();
    expect(await admin.getAttribute('aria-expanded')).toBe('false');
    // The folded list's link to this page is the current one; the button looks like it.
    expect(await page.locator('#admin-menu a[href="/admin/closures"]').getAttribute('aria-current')).toBe('page');
    expect(await admin.getAttribute('class')).toContain('menu-admin-current');
    // Tabbing out of the open list closes it.
    await admin.focus();
    await page.keyboard.press('Enter');
    await closures.waitFor();
    await closures.focus();
    await page.keyboard.press('Tab');
    expect(await admin.getAttribute('aria-expanded')).toBe('false');

    // 390 px: the Admin button inside the phone menu; Escape closes the list, then the menu.
    await page.setViewportSize(PHONE);
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await admin.focus();
    await page.keyboard.press('Enter');
    await closures.waitFor();
    const users = nav.getByRole('link', { name: 'Users', exact: true });
    expect((await users.boundingBox())!.x + (await users.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
    await page.keyboard.press('Escape');
    expect(await admin.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await focused()).toBe('Admin');
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await focused()).toBe('Menu');
    // Following an admin link from the phone menu.
    await menu.click();
    await admin.click();
    await users.click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    await admin.click();
    await check(page, 'the phone menu with the Admin list open');
    expect(findings).toEqual({});

    // A user has no Admin button.
    const person = await app.tab();
    await signIn(person, app.baseUrl, PERSON.email, PERSON.password);
    expect(await person.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(app.problems).toEqual([]);
  });
});
