import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededUserEmail } from '../../scripts/seed/generate.js';
import { PROFILES, SEED_PASSWORD, seed } from '../../scripts/seed/seed.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { DESKTOP, PHONE, screenshots, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

/**
 * What a newcomer meets, on the seeded `small` office (`npm run seed -- --profile small`), in
 * Chromium at desktop and phone width:
 * - the map's desk labels fit their boxes, are never upside down and are drawn only when readable;
 *   desks are never "Desk Desk 1.02-01"; on a phone every desk one can press is at least 24 × 24
 *   CSS pixels (docs/behaviour.md#desk-labels-and-tap-targets-on-the-map);
 * - a desk's type and equipment show in the list, the map's booking dialog, the desk's page and the
 *   booking confirmation (docs/behaviour.md#what-people-see-of-a-desk);
 * - focus after booking, Escape on the map's dialog and on the phone menu
 *   (docs/behaviour.md#focus-after-booking, docs/behaviour.md#the-menu);
 * - on a phone the search folds once results are shown (docs/behaviour.md#find-a-desk-on-a-phone);
 *   the repeat dialog's Book button is in sight with no box scrolling inside the dialog
 *   (docs/behaviour.md#recurring-reservations-in-the-web-app); the pressed List/Map button keeps
 *   its contrast under the pointer;
 * - axe-core (its WCAG 2.0, 2.1 and 2.2 A and AA rules) finds nothing on these pages at either width.
 * Under `npm run screenshots` it takes the README's pictures of the map and of "Find a desk".
 */

// Evaluated (not added as a <script>): the app's Content-Security-Policy refuses inline scripts.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const PERSON = { email: seededUserEmail(0), password: SEED_PASSWORD };

interface EquipmentItem {
  type: string;
  name: string;
}

/** axe-core's violations of the WCAG A and AA rules on the page as it is now, every impact. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((node) => node.target.join(' ')) })))`)) as {
    id: string;
    impact: string;
    help: string;
    targets: string[];
  }[];
  return found.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
}

/** The words the web app uses for a desk's equipment (web/src/lib/labels.ts, equipmentSummary). */
const LABELS: Record<string, string> = {
  DOCKING_STATION: 'Docking station',
  MONITOR: 'Monitor',
  KEYBOARD: 'Keyboard',
  MOUSE: 'Mouse',
  HEADSET: 'Headset',
  WEBCAM: 'Webcam',
  CHAIR: 'Chair',
};
function expectedKit(items: EquipmentItem[]): string[] {
  const entries: string[] = [];
  for (const type of Object.keys(LABELS)) {
    const count = items.filter((item) => item.type === type).length;
    if (count > 0) entries.push(count > 1 ? `${LABELS[type]} × ${count}` : LABELS[type]!);
  }
  return [...entries, ...items.filter((item) => item.type === 'OTHER').map((item) => item.name)];
}

/** Every desk label on the map: its box and its desk's box on screen, its turn and its font size in CSS pixels. */
const LABEL_GEOMETRY = `[...document.querySelectorAll('g.plan-desk')].map((desk) => {
  const rect = desk.querySelector('rect').getBoundingClientRect();
  const text = desk.querySelector('text');
  const deskTurn = Number(/rotate\\(([-0-9.]+)/.exec(desk.getAttribute('transform'))?.[1] ?? 0);
  if (!text) return { id: desk.dataset.deskId, deskTurn, rect: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom } };
  const box = text.getBoundingClientRect();
  const m = text.getScreenCTM();
  return {
    id: desk.dataset.deskId,
    deskTurn,
    text: text.textContent,
    turn: Math.atan2(m.b, m.a) * 180 / Math.PI,
    px: Number(text.getAttribute('font-size')) * Math.hypot(m.a, m.b),
    rect: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom },
    label: { left: box.left, top: box.top, right: box.right, bottom: box.bottom },
  };
})`;
interface Geometry {
  id: string;
  deskTurn: number;
  text?: string;
  turn?: number;
  px?: number;
  rect: { left: number; top: number; right: number; bottom: number };
  label?: { left: number; top: number; right: number; bottom: number };
}

/** Every label on the map inside its desk's box, within ±90° of upright, and at least 10 px; answers them. */
async function expectLabelsFit(page: Page): Promise<Geometry[]> {
  const desks = (await page.evaluate(LABEL_GEOMETRY)) as Geometry[];
  const labelled = desks.filter((desk) => desk.label);
  for (const desk of labelled) {
    const { rect, label } = desk as Required<Geometry>;
    const where = `label "${desk.text}" of desk ${desk.id}: ${JSON.stringify(label)} in ${JSON.stringify(rect)}`;
    expect(label.left, where).toBeGreaterThanOrEqual(rect.left - 0.5);
    expect(label.right, where).toBeLessThanOrEqual(rect.right + 0.5);
    expect(label.top, where).toBeGreaterThanOrEqual(rect.top - 0.5);
    expect(label.bottom, where).toBeLessThanOrEqual(rect.bottom + 0.5);
    expect(Math.abs(desk.turn!), where).toBeLessThanOrEqual(90.01);
    expect(desk.px!, where).toBeGreaterThanOrEqual(10);
  }
  return labelled;
}

/** WCAG contrast ratio of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = color
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((part) => {
        const c = Number(part) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** No element inside `within` (a CSS selector) scrolls on its own. */
const NESTED_SCROLLERS = (within: string) => `[...document.querySelectorAll('${within} *')]
  .filter((element) => /(auto|scroll)/.test(getComputedStyle(element).overflowY) && element.scrollHeight > element.clientHeight + 1)
  .map((element) => element.tagName + '.' + element.className)`;

const activeDeskId = (page: Page) => page.evaluate(`document.activeElement?.getAttribute('data-desk-id') ?? null`);
const activeIsInside = (page: Page, selector: string) => page.evaluate(`Boolean(document.activeElement?.closest('${selector}'))`);

describe('what a newcomer meets, on the seeded office', () => {
  let app: BrowserApp;
  let adminToken: string;

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${app.baseUrl}${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
  /** What the API says a desk has, in the web app's words. */
  async function kitOf(departmentId: string, deskId: string): Promise<string[]> {
    const page = await api<{ content: { deskId: string; equipment: EquipmentItem[] }[] }>(`/api/departments/${departmentId}/desk-equipment?size=1000`);
    return expectedKit(page.content.find((item) => item.deskId === deskId)!.equipment);
  }

  beforeAll(async () => {
    // Seeded people have reservations of their own; this one books beside them.
    app = await startBrowserApp({ RESERVATION_ONE_PER_USER: 'false' });
    await seed(app.database.handle, { sizes: PROFILES.small, seed: 1 });
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    adminToken = ((await login.json()) as { accessToken: string }).accessToken;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('the list: what each desk has, booking by keyboard keeps focus, no "Desk Desk", axe clean', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, PERSON.email, PERSON.password);
    const results = page.getByRole('region', { name: /^Free desks/ });
    // One floor of one building, with a docking station: a page the README's picture can show whole.
    await page.locator('.desk-row').first().waitFor();
    for (const field of ['Location', 'Building', 'Floor']) await page.getByLabel(field, { exact: true }).selectOption({ index: 1 });
    const office = ['Location', 'Building', 'Floor'].map((field) => page.getByLabel(field, { exact: true }).locator('option:checked'));
    const place = `${(await office[0]!.textContent())!} · ${(await office[1]!.textContent())!} · ${(await office[2]!.textContent())!}`;
    await page.getByLabel('Docking station', { exact: true }).check();
    await page.getByRole('button', { name: 'Search free desks' }).click();
    // Every room shown is in that office.
    await expect.poll(async () => [...new Set(await page.locator('.room-card-head .muted').allTextContents())]).toEqual([place]);
    const firstRow = page.locator('.desk-row').first();
    await firstRow.waitFor();
    expect(await firstRow.locator('.desk-features').textContent()).toMatch(/Docking station/);
    const room = page.locator('.room-card').first();
    const deskName = (await firstRow.locator('.desk-name').textContent())!.trim();
    expect(deskName).toMatch(/^Desk \d/);
    const bookButton = firstRow.getByRole('button', { name: /^Book / });
    const label = (await bookButton.getAttribute('aria-label'))!;
    expect(label).toMatch(new RegExp(`^Book ${deskName.replace(/[.]/g, '\\.')} in `));

    // Type and equipment under the desk's name, as the API has them.
    const deskId = await page.evaluate(`(() => {
      const row = document.querySelector('.desk-row');
      const report = row.querySelector('a[href*="deskId="]');
      return new URL(report.href).searchParams.get('deskId');
    })()`);
    const departmentId = await page.evaluate(`new URL(document.querySelector('.desk-row a[href*="departmentId="]').href).searchParams.get('departmentId')`);
    const kit = await kitOf(String(departmentId), String(deskId));
    const features = firstRow.locator('.desk-features');
    await expect.poll(() => features.textContent()).toBe(['Flexible desk', ...(kit.length > 0 ? kit : ['no equipment'])].join(' · '));

    // Nothing says "desk Desk …", in text or accessible names.
    const names = String(
      await page.evaluate(`[document.body.innerText, ...[...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))].join('\\n')`),
    );
    expect(names).not.toMatch(/desk desk/i);

    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'find-a-desk');

    // Book by keyboard: focus lands on the confirmation, which says what the desk has; not on the page's top.
    await bookButton.focus();
    await page.keyboard.press('Enter');
    const notice = results.getByRole('status').filter({ hasText: `Booked: ${deskName} in ${(await room.locator('h3').textContent())!}` });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(kit.length > 0 ? `It has: ${kit.join(', ')}.` : 'It has no equipment.');
    expect(await activeIsInside(page, '.notice-box')).toBe(true);
    expect(app.problems).toEqual([]);
  });

  it('the repeat dialog: its Book button in sight without scrolling inside it, at 1280 × 800 and on a phone', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, PERSON.email, PERSON.password);
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      const repeat = page.getByRole('button', { name: /^Repeat .* on several dates$/ }).first();
      await repeat.click();
      const dialog = page.getByRole('dialog', { name: /^Repeat: / });
      // Twelve weeks: as many dates as the booking horizon (90 days) allows.
      await dialog.getByLabel('Times', { exact: true }).fill('12');
      await dialog.getByRole('button', { name: 'Show the dates' }).click();
      const book = dialog.getByRole('button', { name: /^Book (the \d+ free dates|\d+ dates)$/ });
      await book.waitFor();
      const box = (await book.boundingBox())!;
      const frame = (await dialog.boundingBox())!;
      expect(box.y + box.height, `Book button at ${JSON.stringify(box)} in a ${size.width}×${size.height} window`).toBeLessThanOrEqual(size.height);
      expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height + 0.5);
      expect(box.y).toBeGreaterThanOrEqual(frame.y);
      expect(await page.evaluate(NESTED_SCROLLERS('dialog[open]'))).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      // Escape closes it and gives focus back to the button that opened it.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(`document.activeElement?.getAttribute('aria-label')`)).toBe(await repeat.getAttribute('aria-label'));
    }
    expect(app.problems).toEqual([]);
  });

  it('on a phone: the search folds once results show, and the menu closes on Escape', async () => {
    const page = await app.tab();
    await page.setViewportSize(PHONE);
    await signIn(page, app.baseUrl, PERSON.email, PERSON.password);
    const form = page.getByRole('form', { name: 'Search for free desks' });
    const change = page.getByRole('button', { name: 'Change the search' });
    await page.locator('.desk-row').first().waitFor();
    expect(await form.isVisible()).toBe(false);
    expect(await change.getAttribute('aria-expanded')).toBe('false');
    const heading = (await page.getByRole('heading', { name: /^Free desks/ }).boundingBox())!;
    const firstDesk = (await page.locator('.desk-row').first().boundingBox())!;
    expect(heading.y).toBeLessThan(PHONE.height / 2);
    expect(firstDesk.y + firstDesk.height).toBeLessThanOrEqual(PHONE.height);

    await change.click();
    await form.waitFor();
    expect(await page.evaluate(`document.activeElement?.closest('form')?.getAttribute('aria-label')`)).toBe('Search for free desks');
    await page.getByLabel('From', { exact: true }).fill('10:00');
    await page.getByRole('button', { name: 'Search free desks' }).click();
    await page.getByRole('heading', { name: /^Free desks, .*10:00/ }).waitFor();
    await form.waitFor({ state: 'hidden' });
    expect(await axeViolations(page)).toEqual([]);

    // The phone menu: Escape closes it and focus goes back to its button.
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My reservations' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My reservations' }).isVisible()).toBe(false);
    expect(await page.evaluate(`document.activeElement?.textContent`)).toBe('Menu');
    expect(app.problems).toEqual([]);
  });

  it('the map of a seeded office: labels fit and stand upright at every zoom, 24 px targets on a phone, the dialog says what a desk has', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, PERSON.email, PERSON.password);
    const mapButton = page.getByRole('button', { name: 'Map', exact: true });
    await mapButton.click();
    // The pressed view under the pointer keeps a readable contrast (it was white on near-white).
    await mapButton.hover();
    await expect
      .poll(async () => {
        const [color, background] = (await page.evaluate(
          `(() => { const button = document.querySelector('.view-switch [aria-pressed="true"]'); return [getComputedStyle(button).color, getComputedStyle(button).backgroundColor]; })()`,
        )) as [string, string];
        return contrast(color, background);
      })
      .toBeGreaterThanOrEqual(4.5);

    const map = page.getByRole('group', { name: /^Floor plan, / });
    await map.locator('g.plan-desk').first().waitFor();
    const departmentId = await page.getByLabel('Office', { exact: true }).inputValue();

    // Desktop, at the first zoom and two steps in.
    let labelled = await expectLabelsFit(page);
    const all = (await page.evaluate(LABEL_GEOMETRY)) as Geometry[];
    expect(labelled.length, 'most desks carry a label at desktop width').toBeGreaterThan(all.length / 2);
    expect(
      labelled.some((desk) => desk.deskTurn === 180),
      'desks turned 180° carry an upright label',
    ).toBe(true);
    for (const name of (await page.evaluate(
      `[...document.querySelectorAll('g.plan-desk')].map((desk) => desk.getAttribute('aria-label') ?? '')`,
    )) as string[]) {
      expect(name).toMatch(/^Desk \d/);
      expect(name).not.toMatch(/desk desk/i);
    }
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await expectLabelsFit(page);
    expect(zoomed.length, 'labels are drawn zoomed in').toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Reset view' }).click();

    // A free desk by keyboard: the dialog says what it has; Escape closes it and focus is back on the desk.
    const free = map.locator('g.plan-desk[role="button"]').first();
    const freeId = (await free.getAttribute('data-desk-id'))!;
    const freeName = /^(Desk [^,]+),/.exec((await free.getAttribute('aria-label'))!)![1]!;
    await free.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Book ${freeName}` });
    await dialog.waitFor();
    const kit = await kitOf(departmentId, freeId);
    await expect.poll(() => dialog.locator('.desk-features').textContent()).toBe(['Flexible desk', ...(kit.length > 0 ? kit : ['no equipment'])].join(' · '));
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await activeDeskId(page)).toBe(freeId);

    // Booked from the map: the confirmation says what the desk has and takes focus.
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Book', exact: true }).click();
    const notice = page.getByRole('status').filter({ hasText: `Booked: ${freeName} in ` });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(kit.length > 0 ? `It has: ${kit.join(', ')}.` : 'It has no equipment.');
    expect(await activeIsInside(page, '.notice-box')).toBe(true);

    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'floor-map');

    // A phone: every desk one can press is a target of 24 × 24 CSS pixels at least, labels still fit.
    await page.setViewportSize(PHONE);
    await expect
      .poll(async () => {
        const sizes = (await page.evaluate(
          `[...document.querySelectorAll('g.plan-desk[role="button"] rect')].map((rect) => [rect.getBoundingClientRect().width, rect.getBoundingClientRect().height])`,
        )) as [number, number][];
        return Math.min(...sizes.flat());
      })
      .toBeGreaterThanOrEqual(24);
    labelled = await expectLabelsFit(page);
    expect(labelled.length, 'labels are drawn on a phone').toBeGreaterThan(0);
    // Tab reaches a desk out of sight: the map pans to it.
    const last = map.locator('g.plan-desk[role="button"]').last();
    await last.focus();
    const svgBox = (await map.boundingBox())!;
    const lastBox = (await last.locator('rect').boundingBox())!;
    expect(lastBox.x).toBeGreaterThanOrEqual(svgBox.x - 0.5);
    expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(svgBox.x + svgBox.width + 0.5);
    expect(lastBox.y).toBeGreaterThanOrEqual(svgBox.y - 0.5);
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(svgBox.y + svgBox.height + 0.5);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    expect(app.problems).toEqual([]);
  });

  it("a desk's page says what the desk is and has, axe clean at both widths", async () => {
    const departments = await api<{ content: { id: string }[] }>('/api/departments?size=1');
    const departmentId = departments.content[0]!.id;
    const desks = await api<{ content: { deskId: string; equipment: EquipmentItem[] }[] }>(`/api/departments/${departmentId}/desk-equipment?size=1000`);
    const desk = desks.content.find((item) => item.equipment.length > 1)!;
    const page = await app.tab();
    await signIn(page, app.baseUrl, PERSON.email, PERSON.password);
    await page.goto(`${app.baseUrl}/d/${desk.deskId}`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    expect(await heading.textContent()).toMatch(/^Desk \d/);
    const features: Locator = page.locator('.desk-features');
    await expect
      .poll(() => features.textContent())
      .toMatch(
        new RegExp(
          `· ${expectedKit(desk.equipment)
            .join(' · ')
            .replace(/[.*+?^${}()|[\]\\×]/g, '\\$&')}$`,
        ),
      );
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await axeViolations(page)).toEqual([]);
    expect(app.problems).toEqual([]);
  });
});
