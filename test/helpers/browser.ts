import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type BrowserContextOptions, type Page, type Route } from 'playwright-core';
import { expect } from 'vitest';
import { webBuildIsCurrent } from '../../scripts/build-web.js';
import deskbook, { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { projectPath } from '../../src/shared/paths.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './app.js';
import { TEST_ONLY_ENV } from './test-env.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/**
 * The web app in a real browser (Debian's Chromium, headless, never a downloaded one) against a
 * real server on a fresh database, shared by the browser tests under test/e2e/ (the `system` tier).
 *
 * They take screenshots of the main pages for the docs only under `npm run screenshots`
 * (DESKBOOK_SCREENSHOTS=1, docs/testing.md#screenshots): `npm test` writes no tracked file.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const BROWSER_TIME_ZONE = 'Europe/Berlin';
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const SCREENSHOTS = projectPath('docs', 'screenshots');
/** Set by `npm run screenshots`: the browser tests then write docs/screenshots/. */
export const WRITE_SCREENSHOTS = process.env.DESKBOOK_SCREENSHOTS === '1';

/** A full-page screenshot into docs/screenshots/`file`, under `npm run screenshots` only. */
export async function screenshot(page: Page, file: string): Promise<void> {
  return screenshotFile(page, file);
}
async function screenshotFile(page: Page, file: string): Promise<void> {
  if (WRITE_SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, file), fullPage: true });
}

/** The elements sticking out on the right, to say what makes a page scroll sideways. */
const WIDER_THAN_SCREEN = `[...document.querySelectorAll('body *')]
  .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
  .slice(0, 5)
  .map((element) => element.tagName + '.' + element.className + ' ' + Math.round(element.getBoundingClientRect().right))`;

/** Evaluated in a page: resolves after two frames, time for layouts that follow media queries in script to re-render. */
export const TWO_FRAMES = 'new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))';

/**
 * How far the page scrolls sideways now (0: it fits its window), and the first elements past its
 * right edge, to say what makes it.
 */
export async function sidewaysScroll(page: Page): Promise<{ px: number; culprits: string[] }> {
  const px = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
  return { px, culprits: px > 0 ? ((await page.evaluate(WIDER_THAN_SCREEN)) as string[]) : [] };
}

function partsIn(timeZone: string, date: Date, withTime: boolean): Record<string, string> {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
  });
  return Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
}

/** The calendar date `days` after today in a time zone, as a date input holds it. */
export function dayIn(timeZone: string, days: number): string {
  const parts = partsIn(timeZone, new Date(), false);
  const next = new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day) + days));
  return next.toISOString().slice(0, 10);
}

/** Tomorrow's calendar date in a time zone, as a date input holds it. */
export function tomorrowIn(timeZone: string): string {
  return dayIn(timeZone, 1);
}

/** "YYYY-MM-DD HH:MM" of an instant in a time zone. */
export function localIn(timeZone: string, iso: string): string {
  const parts = partsIn(timeZone, new Date(iso), true);
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/**
 * What the browser tests do to every window of the browser at once: each `tab()` is a window of
 * its own (own cookies), so a permission, a route or a cleared cookie applies to all of them,
 * those opened later included.
 */
export interface BrowserWindows {
  grantPermissions(permissions: string[], options?: { origin?: string }): Promise<void>;
  route(url: RegExp | string, handler: (route: Route) => Promise<void> | void): Promise<void>;
  clearCookies(): Promise<void>;
  /** The next page opened by any window (a pop-up, a printed sheet). */
  waitForEvent(event: 'page'): Promise<Page>;
}

export interface BrowserApp {
  baseUrl: string;
  server: FastifyInstance;
  database: TestDatabase;
  context: BrowserWindows;
  /** Script errors and console errors of every tab, to assert empty at the end. */
  problems: string[];
  /**
   * A new browser window with cookies of its own, so its own signed-in person: the tabs of one
   * window share one sign-in (docs/sessions.md).
   */
  tab(): Promise<Page>;
  /** Another tab of the same window as `page`: it shares the page's sign-in (docs/sessions.md#tabs). */
  tabBeside(page: Page): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Builds the web app if needed, starts the service on a fresh database and a browser. `port`: a
 * port known beforehand (when PUBLIC_URL in `env` must name it, as single sign-on's redirect URL does).
 */
/**
 * Builds the web app into dist/web when it is not current. The `system` project's global setup
 * (test/helpers/web-build-setup.ts) calls it once before any of its files runs: two browser files
 * starting at once had each built it, into the same folder (the service worker's build then failed).
 */
export function ensureWebBuiltForTests(): void {
  if (webBuildIsCurrent()) return;
  const build = spawnSync(process.execPath, [projectPath('node_modules', 'tsx', 'dist', 'cli.mjs'), projectPath('scripts', 'build-web.ts')], {
    cwd: projectPath(),
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`web build failed:\n${build.stdout}\n${build.stderr}`);
}

export async function startBrowserApp(env: Record<string, string> = {}, options: { port?: number } = {}): Promise<BrowserApp> {
  ensureWebBuiltForTests();
  const database = await createTestDatabase();
  const config = loadConfig({ ...TEST_ONLY_ENV, ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent', REQUEST_LOG: 'false', ...env });
  const server = Fastify(serverOptions(config, false));
  await server.register(deskbook, { config, database: database.handle });
  const baseUrl = await server.listen({ port: options.port ?? 0, host: '127.0.0.1' });

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const contextOptions: BrowserContextOptions = { viewport: DESKTOP, timezoneId: BROWSER_TIME_ZONE, locale: 'en-GB' };
  const problems: string[] = [];
  const windows: BrowserContext[] = [];
  // What every window gets, those opened later too.
  const permissions: Array<[string[], { origin?: string } | undefined]> = [];
  const routes: Array<[RegExp | string, (route: Route) => Promise<void> | void]> = [];

  const watched = (page: Page) => {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // The browser logs every non-2xx answer (409s on purpose, 404 for a missing picture).
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
    });
    return page;
  };

  const context: BrowserWindows = {
    async grantPermissions(granted, options) {
      permissions.push([granted, options]);
      await Promise.all(windows.map((window) => window.grantPermissions(granted, options)));
    },
    async route(url, handler) {
      routes.push([url, handler]);
      await Promise.all(windows.map((window) => window.route(url, handler)));
    },
    async clearCookies() {
      await Promise.all(windows.map((window) => window.clearCookies()));
    },
    waitForEvent: () => new Promise<Page>((resolve) => windows.forEach((window) => window.once('page', resolve))),
  };

  return {
    baseUrl,
    server,
    database,
    context,
    problems,
    async tab() {
      const window = await browser.newContext(contextOptions);
      window.setDefaultTimeout(15_000);
      windows.push(window);
      for (const [granted, options] of permissions) await window.grantPermissions(granted, options);
      for (const [url, handler] of routes) await window.route(url, handler);
      return watched(await window.newPage());
    },
    async tabBeside(page) {
      return watched(await page.context().newPage());
    },
    async close() {
      await browser.close();
      await server.close();
      await database.dispose();
    },
  };
}

/**
 * One call of the service's API as a script would make it, with `token` (none: anonymous); its
 * JSON answer, or a thrown error naming the call and the service's answer when it failed.
 */
export async function callApi<T>(baseUrl: string, token: string | undefined, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** An access token for `email` (POST /api/auth/login). */
export const tokenFor = async (baseUrl: string, email: string, password: string): Promise<string> =>
  (await callApi<{ accessToken: string }>(baseUrl, undefined, 'POST', '/api/auth/login', { email, password })).accessToken;

/** Signs in through the sign-in form and waits for the first page. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Find a desk' }).waitFor();
}

/**
 * Follows a link of the main navigation, opening the phone menu first if it is folded, and the
 * Admin list if the link is one of its (docs/behaviour.md#the-menu).
 */
export async function openMenu(page: Page, link: string) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  const navigation = page.getByRole('navigation', { name: 'Main' });
  const target = navigation.getByRole('link', { name: link, exact: true });
  const admin = navigation.getByRole('button', { name: 'Admin', exact: true });
  if (!(await target.isVisible()) && (await admin.count()) > 0 && (await admin.getAttribute('aria-expanded')) !== 'true') await admin.click();
  await target.click();
}

/**
 * What the page shows now must fit a phone screen without scrolling sideways; under
 * `npm run screenshots`, desktop and phone screenshots of it land in docs/screenshots/ (not with
 * `pictures: false`, when another test takes the README's pictures of that page).
 */
export async function screenshots(page: Page, name: string, { pictures = true }: { pictures?: boolean } = {}) {
  const screenshot = pictures ? screenshotFile : async () => {};
  await screenshot(page, `${name}-desktop.png`);
  await page.setViewportSize(PHONE);
  // Two frames: time for layouts that follow media queries in script (the charts) to re-render.
  await page.evaluate(TWO_FRAMES);
  // Strings, evaluated in the page (tests are compiled without the DOM library).
  const { px: overflow, culprits } = await sidewaysScroll(page);
  expect(overflow, `${name} is wider than a phone screen: ${JSON.stringify(culprits)}`).toBeLessThanOrEqual(0);
  await screenshot(page, `${name}-phone.png`);
  await page.setViewportSize(DESKTOP);
  await page.evaluate(TWO_FRAMES);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The axe-core tags of the WCAG 2.0, 2.1 and 2.2 A and AA rules (docs/testing.md). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe-core's violations of the WCAG 2.0–2.2 A and AA rules (any impact) on the page as it is now, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
    .then((result) => result.violations.map((v) => v.impact + ' ' + v.id + ': ' + v.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')))`)) as string[];
}

/**
 * The page as it is now, at 1280 px and at 390 px: no violation of axe-core's WCAG 2.0–2.2 A and
 * AA rules (any impact), and nothing wider than the window (the first elements past its right edge
 * are named). Leaves the page at desktop width.
 */
export async function expectAccessibleAtBothWidths(page: Page, what: string): Promise<void> {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    expect(await axeViolations(page), `${what} at ${viewport.width} px`).toEqual([]);
    const { px: overflow, culprits } = await sidewaysScroll(page);
    expect(overflow, `${what} scrolls sideways at ${viewport.width} px: ${JSON.stringify(culprits)}`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize(DESKTOP);
}
