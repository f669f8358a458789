import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { openMenu, screenshots, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { freePort } from '../helpers/slapd.js';

/**
 * Single sign-on in a real browser (Debian's Chromium, headless): the "Sign in with …" button,
 * the real provider's login and consent pages, the return page trading the one-time code, the
 * profile saying how the account signs in, and an error explained
 * (docs/behaviour.md#single-sign-on-openid-connect).
 */
describe('single sign-on in a browser', () => {
  let provider: TestProvider;
  let browser: BrowserApp;

  beforeAll(async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider({ redirectUri: `${baseUrl}/api/auth/oidc/callback` });
    provider.accounts.set('e2e-olga', { sub: 'e2e-olga', email: 'olga@example.test', email_verified: true, given_name: 'Olga', family_name: 'Sso' });
    provider.accounts.set('e2e-unverified', { sub: 'e2e-unverified', email: 'nobody@example.test', email_verified: false });
    // Has a password account here: only an admin can link it.
    provider.accounts.set('e2e-paula', { sub: 'e2e-paula', email: 'paula@example.test', email_verified: true });
    browser = await startBrowserApp(
      {
        PUBLIC_URL: baseUrl,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_DISPLAY_NAME: 'Test IdP',
        OIDC_AUTO_CREATE: 'true',
      },
      { port },
    );
    // The provider's dev pages import a web font; nothing leaves the machine.
    await browser.context.route(/fonts\.googleapis\.com/, (route) => route.abort());
  });

  afterAll(async () => {
    await browser?.close();
    await provider?.stop();
  });

  /** From the sign-in page through the provider's login and consent pages. */
  async function throughProvider(page: Page, login: string, screenshotName?: string) {
    // A new person at the provider: its session of the previous sign-in is forgotten.
    await browser.context.clearCookies();
    await page.goto(`${browser.baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
    await button.waitFor();
    if (screenshotName) await screenshots(page, screenshotName);
    await button.click();
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('signs in through the provider, creates the account and shows how it signs in', async () => {
    const page = await browser.tab();
    await throughProvider(page, 'e2e-olga', 'sign-in-sso');
    await page.getByRole('heading', { name: 'Find a desk' }).waitFor();
    // The one-time code is gone from the address bar and history.
    expect(page.url()).toBe(`${browser.baseUrl}/`);
    await page.goto(`${browser.baseUrl}/profile`);
    await page.getByRole('heading', { name: 'How you sign in' }).waitFor();
    await expect.poll(() => page.getByText('You sign in with a password or with single sign-on with Test IdP.').count()).toBe(1);
    await expect.poll(() => page.getByText('olga@example.test').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('lets an admin link a password account on the users page, which then signs in through the provider', async () => {
    const api = async (method: string, url: string, token?: string, body?: unknown) => {
      const response = await fetch(`${browser.baseUrl}${url}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return (text ? JSON.parse(text) : {}) as Record<string, string>;
    };
    const { accessToken } = await api('POST', '/api/auth/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const paula = await api('POST', '/api/users', accessToken, { firstName: 'Paula', lastName: 'Password', email: 'paula@example.test' });
    await api('PUT', `/api/users/${paula.id}/password`, accessToken, { password: 'paula-password-1' });

    const admin = await browser.tab();
    await signIn(admin, browser.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(admin, 'Users');
    await admin.getByRole('button', { name: 'Single sign-on of Paula Password' }).click();
    await admin.getByLabel('Subject (sub) at the identity provider').fill('e2e-paula');
    await admin.getByRole('button', { name: 'Link', exact: true }).click();
    await admin.getByText('Paula Password is now linked to single sign-on.').waitFor();
    await admin.close();

    const page = await browser.tab();
    await throughProvider(page, 'e2e-paula');
    await page.getByRole('heading', { name: 'Find a desk' }).waitFor();
    await page.goto(`${browser.baseUrl}/profile`);
    await expect.poll(() => page.getByText('You sign in with a password or with single sign-on with Test IdP.').count()).toBe(1);
    await expect.poll(() => page.getByText('paula@example.test').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('explains a refused sign-in on the return page', async () => {
    const page = await browser.tab();
    await throughProvider(page, 'e2e-unverified');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Ask your administrator to link your account');
    await expect.poll(() => page.getByText('e2e-unverified', { exact: true }).count()).toBe(1);
    await page.getByRole('link', { name: 'Back to sign-in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.close();
    expect(browser.problems).toEqual([]);
  });
});
