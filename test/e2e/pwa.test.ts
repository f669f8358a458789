import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentSettings } from '../../src/db/schema.js';
import { projectPath } from '../../src/shared/paths.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { BROWSER_TIME_ZONE, dayIn, expectAccessibleAtBothWidths, openMenu, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { insertDepartment, insertDesk, insertReservation, insertRoom } from '../helpers/fixtures.js';

/**
 * The installable app (docs/pwa.md) in Chromium, checked the way Lighthouse's installability audit
 * does: the page links a valid manifest whose icons load at their stated sizes, a service worker
 * controls the page, and start_url answers 200 offline. Offline, the app shell still renders and
 * shows the person's upcoming reservations from their last visit, marked as such (axe-clean at
 * 1280 and 390 px); a sign-out leaves none. A changed worker on the server brings the "new version"
 * prompt, whose Reload lets the new worker take over.
 */

const PIA = { firstName: 'Pia', lastName: 'Pocket', email: 'pia@example.test', password: 'pia-password-1' };
const OTTO = { firstName: 'Otto', lastName: 'Other', email: 'otto@example.test', password: 'otto-password-1' };
const ZONE = BROWSER_TIME_ZONE;
const at = (date: string, time: string) => new Date(Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: ZONE, plainTime: time }).epochMilliseconds);
const WORKER_FILE = projectPath('dist', 'web', 'sw.js');
const SNAPSHOT = `localStorage.getItem('deskbook.offline-reservations')`;

describe('the installable app and offline', () => {
  let app: BrowserApp;

  const api = async (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.server.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return response.body ? response.json() : undefined;
  };

  beforeAll(async () => {
    app = await startBrowserApp({ PASSWORD_CHANGE_AFTER_ADMIN_SET: 'false' });
    const db = app.database.handle.db;
    const admin = (await api(undefined, 'POST', '/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).accessToken as string;
    const ids: Record<string, string> = {};
    for (const person of [PIA, OTTO]) {
      const user = await api(admin, 'POST', '/api/users', { email: person.email, firstName: person.firstName, lastName: person.lastName });
      await api(admin, 'PUT', `/api/users/${user.id}/password`, { password: person.password });
      ids[person.email] = user.id;
    }
    const office = await insertDepartment(db, { location: 'Lisbon', building: 'Tejo', floor: 2 });
    await db.insert(departmentSettings).values({ departmentId: office.id, timeZone: ZONE });
    const room = await insertRoom(db, office.id, { name: 'Harbour' });
    const mine = await insertDesk(db, room.id, { name: 'H7' });
    const theirs = await insertDesk(db, room.id, { name: 'H9' });
    const tomorrow = dayIn(ZONE, 1);
    await insertReservation(db, { userId: ids[PIA.email]!, deskId: mine.id, startTime: at(tomorrow, '09:00'), endTime: at(tomorrow, '17:00') });
    await insertReservation(db, { userId: ids[OTTO.email]!, deskId: theirs.id, startTime: at(tomorrow, '09:00'), endTime: at(tomorrow, '17:00') });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is installable: a linked, valid manifest with icons of the stated sizes, and a worker controlling the page', async () => {
    const page = await app.tab();
    await page.goto(`${app.baseUrl}/sign-in`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const response = await fetch(new URL(href!, app.baseUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as Record<string, unknown> & { icons: Array<{ src: string; sizes: string; type: string; purpose?: string }> };
    expect(manifest).toMatchObject({ name: 'Deskbook', short_name: 'Deskbook', start_url: '/', scope: '/', display: 'standalone', theme_color: '#1f4fd1' });
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    // Lighthouse wants a 192 and a 512 px icon, and a maskable one.
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, app.baseUrl));
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get('content-type')).toBe(icon.type);
      const { width, height, format } = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
      expect(format).toBe('png');
    }
    // The pages may load the manifest and the worker (the server's CSP says so).
    const csp = (await fetch(`${app.baseUrl}/`, { headers: { accept: 'text/html' } })).headers.get('content-security-policy')!;
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("worker-src 'self'");
    const worker = await fetch(`${app.baseUrl}/sw.js`);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(worker.headers.get('service-worker-allowed')).toBe('/');
    // Registered after load, it takes control of the page that registered it.
    await expect.poll(() => page.evaluate('Boolean(navigator.serviceWorker.controller)'), { timeout: 15_000 }).toBe(true);
    expect(await page.evaluate(`navigator.serviceWorker.getRegistration('/').then((r) => r.active.scriptURL)`)).toBe(`${app.baseUrl}/sw.js`);
    expect(app.problems).toEqual([]);
    await page.close();
  });

  it('offline, renders the shell and shows the upcoming reservations of the last visit, marked as such; a sign-out leaves none', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, PIA.email, PIA.password);
    await expect.poll(() => page.evaluate('Boolean(navigator.serviceWorker.controller)'), { timeout: 15_000 }).toBe(true);
    await openMenu(page, 'My reservations');
    await page.getByRole('heading', { name: 'My reservations' }).waitFor();
    await page.getByText('Desk H7', { exact: true }).first().waitFor();
    await expect.poll(async () => JSON.parse(String(await page.evaluate(SNAPSHOT)))?.entries?.[0]?.room, { timeout: 10_000 }).toBe('Harbour');

    await page.context().setOffline(true);
    try {
      // start_url answers 200 from the worker, without the network.
      const start = await page.goto(`${app.baseUrl}/`);
      expect(start?.status()).toBe(200);
      expect(start?.fromServiceWorker()).toBe(true);
      await page.goto(`${app.baseUrl}/reservations`);
      await page.getByRole('heading', { name: 'You are offline', level: 1 }).waitFor();
      const notice = page.getByRole('status').filter({ hasText: 'Shown from' });
      expect(await notice.textContent()).toMatch(/^Shown from .+; you are offline\./);
      const list = page.getByRole('region', { name: 'Your upcoming reservations' });
      expect(await list.getByRole('listitem').count()).toBe(1);
      expect(await list.getByRole('listitem').textContent()).toContain('H7');
      expect(await list.getByRole('listitem').textContent()).toContain('Harbour');
      // Only the person's own: Otto's booking in the same room is not there.
      expect(await page.getByText('H9').count()).toBe(0);
      await expectAccessibleAtBothWidths(page, 'the offline page');
      // The API is never answered from a cache.
      expect(await page.evaluate(`fetch('/api/self').then(() => 'answered', () => 'failed')`)).toBe('failed');
    } finally {
      await page.context().setOffline(false);
    }

    // Signing out leaves nothing of the person for the next one at this browser.
    await page.goto(`${app.baseUrl}/reservations`);
    await page.getByRole('heading', { name: 'My reservations' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(SNAPSHOT)).toBeNull();
    await page.context().setOffline(true);
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'You are offline', level: 1 }).waitFor();
      await page.getByText('this browser has no reservations saved').waitFor();
      expect(await page.getByText('H7').count()).toBe(0);
    } finally {
      await page.context().setOffline(false);
    }
    await page.close();
  });

  it('says so when a new version waits, and Reload lets it take over', async () => {
    const page = await app.tab();
    await page.goto(`${app.baseUrl}/sign-in`);
    await expect.poll(() => page.evaluate('Boolean(navigator.serviceWorker.controller)'), { timeout: 15_000 }).toBe(true);
    const prompt = page.getByRole('status').filter({ hasText: 'A new version of Deskbook is available.' });
    expect(await prompt.count()).toBe(0);
    const original = readFileSync(WORKER_FILE, 'utf8');
    // A new release: the server now serves a different worker.
    writeFileSync(WORKER_FILE, `${original}\n// the next version\n`);
    try {
      await page.reload();
      await prompt.waitFor({ timeout: 20_000 });
      expect(await page.evaluate(`navigator.serviceWorker.getRegistration('/').then((r) => Boolean(r.waiting))`)).toBe(true);
      await expectAccessibleAtBothWidths(page, 'the sign-in page with the new-version prompt');
      await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      // The new worker is the active one, nothing waits, and the prompt is gone.
      expect(await page.evaluate(`navigator.serviceWorker.getRegistration('/').then((r) => Boolean(r.waiting))`)).toBe(false);
      expect(await prompt.count()).toBe(0);
    } finally {
      writeFileSync(WORKER_FILE, original);
    }
    expect(app.problems).toEqual([]);
    await page.close();
  });
});
