import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { expectAccessibleAtBothWidths, openMenu, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

/**
 * Translations in the browser (docs/i18n.md): a person whose preference is German sees the bar
 * and the profile in German, `<html lang="de">`, axe finds nothing at 1280 and 390 px, and the
 * picker on the profile switches the app back to English. Every page under the pseudo-locale:
 * languages-pseudo.test.ts; every page in German and French under axe: languages-axe.test.ts.
 */

const GRETA = { firstName: 'Greta', lastName: 'Deutsch', email: 'greta@example.test', password: 'greta-password-1' };

describe('translations in the browser', () => {
  let app: BrowserApp;

  const api = async (token: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await app.server.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return response.body ? response.json() : undefined;
  };

  beforeAll(async () => {
    app = await startBrowserApp({ PASSWORD_CHANGE_AFTER_ADMIN_SET: 'false' });
    const admin = (await api(undefined, 'POST', '/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).accessToken as string;
    for (const person of [GRETA]) {
      const user = await api(admin, 'POST', '/api/users', { email: person.email, firstName: person.firstName, lastName: person.lastName });
      await api(admin, 'PUT', `/api/users/${user.id}/password`, { password: person.password });
    }
    const greta = (await api(undefined, 'POST', '/api/auth/login', { email: GRETA.email, password: GRETA.password })).accessToken as string;
    await api(greta, 'PUT', '/api/self/preferences', { language: 'de' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows the bar and the profile in German to a person who chose German, accessible at both widths, and switches back with the picker', async () => {
    const page = await app.tab();
    // The browser asks for en-GB: the sign-in page is English; the preference applies once signed in.
    await page.goto(`${app.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('E-mail', { exact: true }).fill(GRETA.email);
    await page.getByLabel('Password', { exact: true }).fill(GRETA.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Arbeitsplatz finden', level: 1 }).waitFor();
    const navigation = page.getByRole('navigation', { name: 'Hauptmenü' });
    await navigation.getByRole('link', { name: 'Arbeitsplatz finden' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('de');
    expect(await navigation.getByRole('link', { name: 'Meine Reservierungen' }).count()).toBe(1);
    expect(await navigation.getByRole('button', { name: 'Abmelden' }).count()).toBe(1);

    await navigation.getByRole('link', { name: 'Greta Deutsch' }).click();
    await page.getByRole('heading', { name: 'Ihr Profil', level: 1 }).waitFor();
    for (const heading of ['Bild', 'Name', 'Sprache', 'Passwort', 'Wo Sie angemeldet sind']) {
      await page.getByRole('heading', { name: heading, level: 2, exact: true }).waitFor();
    }
    expect(await page.getByLabel('Sprache von Deskbook').inputValue()).toBe('de');
    await page.getByRole('button', { name: 'Passwort ändern' }).waitFor();
    await page.getByText('Dieses Gerät', { exact: true }).waitFor();
    await expectAccessibleAtBothWidths(page, 'the profile in German');

    // The picker: English, saved, and the app follows at once.
    await page.getByLabel('Sprache von Deskbook').selectOption('en');
    await page.getByRole('button', { name: 'Sprache speichern' }).click();
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Find a desk' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('en');
    const token = (await api(undefined, 'POST', '/api/auth/login', { email: GRETA.email, password: GRETA.password })).accessToken as string;
    expect((await api(token, 'GET', '/api/self/preferences')).language).toBe('en');
    expect(app.problems).toEqual([]);
    await page.close();
  });

  it("follows the organisation's default language, set by an admin, where a person chose none", async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(page, 'Organisation');
    await page.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor();
    await page.getByLabel('Language of everyone who has not chosen one').selectOption('de');
    // The admin chose no language of their own: the app turns German at once.
    await page.getByRole('heading', { name: 'Sprache', level: 2 }).waitFor();
    await page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Arbeitsplatz finden' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('de');
    await expectAccessibleAtBothWidths(page, 'the organisation page in German');
    await page.getByLabel('Sprache für alle, die keine gewählt haben').selectOption('');
    await page.getByRole('heading', { name: 'Language', level: 2 }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('en');
    expect(app.problems).toEqual([]);
    await page.close();
  });
});
