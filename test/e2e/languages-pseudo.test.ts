import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { DESKTOP, PHONE, sidewaysScroll, startBrowserApp, TWO_FRAMES, type BrowserApp } from '../helpers/browser.js';
import { adminPages, greekOffice, PERSON, publicPages, settled, signInAnyLanguage, untranslated, type Office } from '../helpers/languages.js';

/**
 * Every page of the web app under the pseudo-locale (docs/i18n.md#the-pseudo-locale): signed out,
 * as a person and as an administrator, with the main dialogs open, no text and no accessible name
 * is left in English (every one is a bracketed, accented message), and the longer texts still fit
 * a phone screen without scrolling sideways. The office's data is Greek, so any Latin word is the
 * app's own (test/helpers/languages.ts).
 */

const PSEUDO = 'en-XA';

describe('the whole web app under the pseudo-locale', () => {
  let app: BrowserApp;
  let office: Office;
  /** What each page showed that is not translated, or did not fit: expected empty. */
  const findings: Record<string, string[]> = {};

  /** Data shown as it is: the user agent of the sessions this test opened with fetch (the profile's device list). */
  const DATA = ['node'];

  async function look(page: Page, what: string) {
    const found = await untranslated(page, 'body', DATA);
    await page.setViewportSize(PHONE);
    await page.evaluate(TWO_FRAMES);
    const sideways = await sidewaysScroll(page);
    if (sideways.px > 0) found.push(`scrolls sideways by ${sideways.px} px at ${PHONE.width} px: ${JSON.stringify(sideways.culprits)}`);
    found.push(...(await untranslated(page, 'body', DATA)).filter((text) => !found.includes(text)));
    await page.setViewportSize(DESKTOP);
    if (found.length > 0) findings[what] = found;
  }

  async function visit(page: Page, path: string) {
    await page.goto(`${app.baseUrl}${path}`);
    await settled(page);
    await look(page, path);
  }

  /** Opens a dialog by a button matched by its CSS selector, looks at it, and closes it with Escape. */
  async function dialog(page: Page, opener: string, what: string) {
    await page.locator(opener).first().click();
    await page.locator('dialog[open]').waitFor();
    await settled(page);
    await look(page, what);
    await page.keyboard.press('Escape');
    await page.locator('dialog[open]').waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    app = await startBrowserApp({ RESERVATION_ONE_PER_USER: 'false' });
    office = await greekOffice(app);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('finds English text where there is some (the check is not vacuous)', async () => {
    const page = await app.tab();
    await page.goto(`${app.baseUrl}/sign-in?lang=${PSEUDO}`);
    await settled(page);
    expect(await page.evaluate('document.documentElement.lang')).toBe(PSEUDO);
    await page.evaluate(`document.querySelector('h1').insertAdjacentHTML('afterend', '<p>Left in English</p><button aria-label="Close it">×</button>')`);
    expect(await untranslated(page)).toEqual(['Left in English', 'aria-label=Close it']);
    await page.close();
  });

  it('signed out: sign-in, forgotten password, the reset page, the lobby display', async () => {
    const page = await app.tab();
    await page.goto(`${app.baseUrl}/?lang=${PSEUDO}`);
    for (const path of publicPages(office)) await visit(page, path);
    expect(findings).toEqual({});
    expect(app.problems).toEqual([]);
  });

  it('as a person: their pages, the booking and repeat dialogs', async () => {
    const page = await app.tab();
    await signInAnyLanguage(page, app.baseUrl, PERSON.email, PERSON.password, PSEUDO);
    for (const path of ['/', '/reservations', '/report', '/profile', '/people', `/d/${office.deskId}`, '/admin/users']) await visit(page, path);
    await visit(page, '/');
    await dialog(page, '.desk-actions button.button-secondary', 'the repeat dialog');
    expect(findings).toEqual({});
    expect(app.problems).toEqual([]);
  });

  it('as an administrator: every page, with the main dialogs', async () => {
    const page = await app.tab();
    await signInAnyLanguage(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD, PSEUDO);
    for (const path of adminPages(office)) await visit(page, path);
    await visit(page, '/admin/users');
    await dialog(page, '.page-header-actions button', 'the new-user dialog');
    await visit(page, '/admin/teams');
    await dialog(page, '.page-header-actions button', 'the new-team dialog');
    // The admin menu open.
    await page.locator('.menu-admin-button').click();
    await look(page, 'the Admin list');
    expect(findings).toEqual({});
    expect(app.problems).toEqual([]);
  });
});
