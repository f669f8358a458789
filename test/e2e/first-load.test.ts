import { gzipSync } from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { signIn as signInAs, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

/**
 * What the first page costs (docs/i18n.md#what-it-weighs): the JavaScript fetched until the first
 * page shows — entry chunks, the page's chunk and the translation files it waits for — may weigh
 * at most 20 % more than before the app was translated (this test's figures on 9a2478a), raw and
 * gzipped (level 9, file by file), for the sign-in page and for Find a desk as the first page of a
 * signed-in person's visit (a browser holding their session's cookie). Measured in
 * Chromium on the production build, by what the page requests; what it fetches later, once idle
 * (the problem sentences, the service worker's helper), is reported beside it.
 */

/** Before translations: this test's figures on 9a2478a, main just before they were merged (bytes of JavaScript, raw and gzipped). */
const BEFORE = {
  signIn: { raw: 431_662, gzip: 132_955 },
  findDesk: { raw: 491_737, gzip: 154_983 },
};
const GROWTH_ALLOWED = 1.2;

interface Weight {
  raw: number;
  gzip: number;
  files: number;
}

/**
 * The page's own script requests (not the service worker's precaching), in order; the page notes
 * when each first-level heading first shows (performance.now()), to tell what came before it.
 */
async function scriptRequests(page: Page): Promise<Request[]> {
  await page.addInitScript(`window.__headings = []; new MutationObserver(() => {
    for (const h1 of document.querySelectorAll('h1')) if (!window.__headings.some(([text]) => text === h1.textContent)) window.__headings.push([h1.textContent, performance.now()]);
  }).observe(document, { childList: true, subtree: true, characterData: true });`);
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.js') && !requests.some((seen) => seen.url() === request.url())) requests.push(request);
  });
  return requests;
}

/** The requests the page started before `heading` first showed, and the others. */
async function splitAt(page: Page, requests: Request[], heading: string): Promise<[Request[], Request[]]> {
  const shownAt = (await page.evaluate(`window.__headings.find(([text]) => text === ${JSON.stringify(heading)})?.[1]`)) as number;
  const starts = (await page.evaluate(`Object.fromEntries(performance.getEntriesByType('resource').map((entry) => [entry.name, entry.startTime]))`)) as Record<
    string,
    number
  >;
  const before = requests.filter((request) => (starts[request.url()] ?? 0) < shownAt);
  return [before, requests.filter((request) => !before.includes(request))];
}

async function weigh(requests: Request[]): Promise<Weight> {
  let [raw, gzip] = [0, 0];
  for (const request of requests) {
    const body = await (await request.response())!.body();
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip, files: requests.length };
}

describe('the JavaScript of the first page', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('grows by at most 20 % over the untranslated app, signed out and on Find a desk', async () => {
    const visitor = await app.tab();
    const signInScripts = await scriptRequests(visitor);
    await visitor.goto(`${app.baseUrl}/`);
    await visitor.getByRole('heading', { name: 'Sign in' }).waitFor();
    await visitor.waitForLoadState('networkidle');
    const [signIn, signInLater] = await splitAt(visitor, signInScripts, 'Sign in');

    // Find a desk as the first page of a signed-in person's visit: a fresh browser holding their session's cookie.
    const signingIn = await app.tab();
    await signInAs(signingIn, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const person = await app.tab();
    await person.context().addCookies(await signingIn.context().cookies());
    const findDeskScripts = await scriptRequests(person);
    await person.goto(`${app.baseUrl}/`);
    await person.getByRole('heading', { name: 'Find a desk' }).waitFor();
    await person.waitForLoadState('networkidle');
    const [findDesk, findDeskLater] = await splitAt(person, findDeskScripts, 'Find a desk');

    const report = { signIn: await weigh(signIn), findDesk: await weigh(findDesk) };
    const later = { signIn: await weigh(signInLater), findDesk: await weigh(findDeskLater) };
    console.info(`first-page JavaScript until shown: ${JSON.stringify(report)}; fetched later, once idle: ${JSON.stringify(later)}`);
    for (const [page, weight] of Object.entries(report) as [keyof typeof BEFORE, Weight][]) {
      expect(weight.files, page).toBeGreaterThan(1);
      expect(weight.raw / BEFORE[page].raw, `${page}: ${weight.raw} B raw`).toBeLessThanOrEqual(GROWTH_ALLOWED);
      expect(weight.gzip / BEFORE[page].gzip, `${page}: ${weight.gzip} B gzipped`).toBeLessThanOrEqual(GROWTH_ALLOWED);
    }
    // The problem sentences did come, after the first paint.
    expect(signInLater.some((request) => /\/problems-[\w-]+\.js$/.test(request.url()))).toBe(true);
    expect(app.problems).toEqual([]);
  });
});
