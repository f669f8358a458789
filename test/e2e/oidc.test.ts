import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webBuildIsCurrent } from '../../scripts/build-web.js';
import deskbook, { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { projectPath } from '../../src/shared/paths.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../helpers/database.js';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.js';
import { freePort } from '../helpers/slapd.js';

/**
 * Single sign-on in a real browser (Debian's Chromium, headless): the "Sign in with …" button,
 * the real provider's login and consent pages, the return page trading the one-time code, the
 * profile saying how the account signs in, and an error explained
 * (docs/behaviour.md#single-sign-on-openid-connect). Runs in one project, as test/e2e/web.test.ts.
 */
const runsHere = process.env.TEST_DATABASE_URL ? testDbKind === 'postgres' : testDbKind === 'pglite';
const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!runsHere)('single sign-on in a browser', () => {
  let database: TestDatabase;
  let server: FastifyInstance;
  let provider: TestProvider;
  let baseUrl: string;
  let profileDir: string;
  let context: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!webBuildIsCurrent()) {
      const build = spawnSync(process.execPath, [projectPath('node_modules', 'tsx', 'dist', 'cli.mjs'), projectPath('scripts', 'build-web.ts')], {
        cwd: projectPath(),
        encoding: 'utf8',
      });
      if (build.status !== 0) throw new Error(`web build failed:\n${build.stdout}\n${build.stderr}`);
    }
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    provider = await startOidcProvider({ redirectUri: `${baseUrl}/api/auth/oidc/callback` });
    provider.accounts.set('e2e-olga', { sub: 'e2e-olga', email: 'olga@example.test', email_verified: true, given_name: 'Olga', family_name: 'Sso' });
    provider.accounts.set('e2e-unverified', { sub: 'e2e-unverified', email: 'nobody@example.test', email_verified: false });
    database = await createTestDatabase();
    const config = loadConfig({
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      REQUEST_LOG: 'false',
      PUBLIC_URL: baseUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_DISPLAY_NAME: 'Test IdP',
      OIDC_AUTO_CREATE: 'true',
    });
    server = Fastify(serverOptions(config, false));
    await server.register(deskbook, { config, database: database.handle });
    await server.listen({ port, host: '127.0.0.1' });

    profileDir = await mkdtemp(path.join(tmpdir(), 'deskbook-e2e-oidc-'));
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      viewport: { width: 1280, height: 800 },
      locale: 'en-GB',
    });
    context.setDefaultTimeout(15_000);
    // The provider's dev pages import a web font; nothing leaves the machine.
    await context.route(/fonts\.googleapis\.com/, (route) => route.abort());
  });

  afterAll(async () => {
    await context?.close();
    if (profileDir) await rm(profileDir, { recursive: true, force: true });
    await server?.close();
    await provider?.stop();
    await database?.dispose();
  });

  async function tab(): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return page;
  }

  /** From the sign-in page through the provider's login and consent pages. */
  async function throughProvider(page: Page, login: string) {
    // A new person at the provider: its session of the previous sign-in is forgotten.
    await context.clearCookies();
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any-password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('signs in through the provider, creates the account and shows how it signs in', async () => {
    const page = await tab();
    await throughProvider(page, 'e2e-olga');
    await page.getByRole('heading', { name: 'Find a desk' }).waitFor();
    // The one-time code is gone from the address bar and history.
    expect(page.url()).toBe(`${baseUrl}/`);
    await page.goto(`${baseUrl}/profile`);
    await page.getByRole('heading', { name: 'How you sign in' }).waitFor();
    await expect.poll(() => page.getByText('You sign in with a password or with single sign-on with Test IdP.').count()).toBe(1);
    await expect.poll(() => page.getByText('olga@example.test').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('explains a refused sign-in on the return page', async () => {
    const page = await tab();
    await throughProvider(page, 'e2e-unverified');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Ask your administrator to link your account');
    await page.getByRole('link', { name: 'Back to sign-in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.close();
    expect(problems).toEqual([]);
  });
});
