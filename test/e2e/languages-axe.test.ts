import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import {
  axeViolations,
  DESKTOP,
  PHONE,
  screenshot,
  sidewaysScroll,
  startBrowserApp,
  TWO_FRAMES,
  WRITE_SCREENSHOTS,
  type BrowserApp,
} from '../helpers/browser.js';
import { adminPages, greekOffice, NAMES, publicPages, settled, signInAnyLanguage, type Office } from '../helpers/languages.js';

/**
 * Every page of the web app in German and in French (docs/i18n.md), signed out and as an
 * administrator: `<html lang>` names the language, axe-core's WCAG 2.0–2.2 A and AA rules find
 * nothing at 1280 px and at 390 px, and nothing scrolls sideways (German words are long). Under
 * `npm run screenshots` it runs in English too and takes the README's pictures of three pages in
 * English and German, of the same office (docs/testing.md#screenshots).
 */

/** The README's pictures: page → file name, after the language ("de-find-a-desk-desktop.png"). */
const PICTURES: Record<string, string> = { '/': 'find-a-desk', '/reservations': 'my-reservations', '/admin/policies': 'admin-booking-rules' };
const PICTURED = ['en', 'de'];

describe.each(['de', 'fr', ...(WRITE_SCREENSHOTS ? ['en'] : [])])('the whole web app in %s', (language) => {
  let app: BrowserApp;
  let office: Office;
  const findings: Record<string, string[]> = {};

  async function visit(page: Page, path: string) {
    await page.goto(`${app.baseUrl}${path}`);
    await settled(page);
    expect(await page.evaluate('document.documentElement.lang')).toBe(language);
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.evaluate(TWO_FRAMES);
      const found = await axeViolations(page);
      const sideways = await sidewaysScroll(page);
      if (sideways.px > 0) found.push(`scrolls sideways by ${sideways.px} px: ${JSON.stringify(sideways.culprits)}`);
      if (found.length > 0) findings[`${path} at ${size.width} px`] = found;
      const picture = PICTURED.includes(language) ? PICTURES[path] : undefined;
      if (picture) await screenshot(page, `${language}-${picture}-${size === DESKTOP ? 'desktop' : 'phone'}.png`);
    }
    await page.setViewportSize(DESKTOP);
  }

  beforeAll(async () => {
    app = await startBrowserApp({ RESERVATION_ONE_PER_USER: 'false' });
    office = await greekOffice(app, NAMES.german);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('signed out and as an administrator, every page is accessible and fits a phone', async () => {
    const visitor = await app.tab();
    await visitor.goto(`${app.baseUrl}/?lang=${language}`);
    for (const path of publicPages(office)) await visit(visitor, path);
    const page = await app.tab();
    await signInAnyLanguage(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, language);
    for (const path of adminPages(office)) await visit(page, path);
    expect(findings).toEqual({});
    expect(app.problems).toEqual([]);
  });
});
