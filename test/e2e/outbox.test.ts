import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../src/db/schema.js';
import { queueMails } from '../../src/infrastructure/mail/mail-kind.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, drainOutbox } from '../helpers/app.js';
import { DESKTOP, PHONE, openMenu, screenshots, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

/**
 * The admins' outbox page in a real browser (docs/behaviour.md#the-outbox-page): a mail given up
 * after its tries is listed first, with its kind in words, its recipient, tries and last error;
 * "Retry" makes it pending, the outbox job sends it to a real SMTP server, and it is then listed
 * as sent. A user has no "Outbox" in the menu and is refused the page. axe-core (the WCAG 2.0,
 * 2.1 and 2.2 A and AA rules) finds nothing at desktop and phone width.
 */

// Evaluated (not added as a <script>): the app's Content-Security-Policy refuses inline scripts.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const PASSWORD = 'password-e2e-1';
const RECIPIENT = 'gave.up@example.test';

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

/** axe at desktop width, then at phone width (where the table becomes cards), back to desktop. */
async function axeAtBothWidths(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize(PHONE);
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize(DESKTOP);
}

describe('the outbox page', () => {
  let app: BrowserApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    // No outbox job of its own: the test sends by draining (docs/testing.md#background-work).
    app = await startBrowserApp({ SMTP_URL: smtp.url, OUTBOX_INTERVAL: '0' });
  });

  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  it('lists a dead mail first, retries it, and shows it sent; axe clean at both widths', async () => {
    const db = app.database.handle.db;
    // A released-desk notice the SMTP server refused five times: queued through the outbox, left
    // as its fifth failure leaves it (src/infrastructure/outbox/outbox.ts, failed()).
    await queueMails(db, [{ to: RECIPIENT, subject: 'Your desk was released', text: 'Desk A-01 was released.', html: '<p>Desk A-01 was released.</p>' }]);
    await db
      .update(outbox)
      .set({ status: 'dead', attempts: 5, lastError: 'the SMTP server did not accept the mail', deadAt: new Date() })
      .where(eq(outbox.groupKey, RECIPIENT));

    const page = await app.tab();
    await page.setViewportSize(DESKTOP);
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await openMenu(page, 'Outbox');
    await page.getByRole('heading', { name: 'Outbox', level: 1 }).waitFor();
    const statuses = page.getByRole('group', { name: 'Status' });
    // Dead first, pressed, with its count.
    await statuses.getByRole('button', { name: 'Dead (1)', pressed: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: RECIPIENT });
    await row.waitFor();
    await expect(row.getByRole('cell').allInnerTexts()).resolves.toEqual([
      'Released-desk notice',
      RECIPIENT,
      '5',
      'the SMTP server did not accept the mail',
      expect.stringMatching(/\d{4}, \d{2}:\d{2}$/),
      expect.stringMatching(/\d{4}, \d{2}:\d{2}$/),
      'Retry',
    ]);
    await axeAtBothWidths(page);
    await screenshots(page, 'admin-outbox');
    // The admin's menu, one link longer, still fits the narrowest width that shows it in a row.
    await page.setViewportSize({ width: 1100, height: 800 });
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'))).toBeLessThanOrEqual(0);
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: `Retry the released-desk notice to ${RECIPIENT}` }).click();
    await page.getByText(`The released-desk notice to ${RECIPIENT} is pending again`).waitFor();
    await page.getByText('No message has failed.').waitFor();
    await statuses.getByRole('button', { name: 'Dead (0)' }).waitFor();
    await statuses.getByRole('button', { name: /^Pending/ }).click();
    const pending = page.getByRole('row').filter({ hasText: RECIPIENT });
    await pending.waitFor();
    await expect(pending.getByRole('cell').allInnerTexts()).resolves.toEqual([
      'Released-desk notice',
      RECIPIENT,
      '0',
      'the SMTP server did not accept the mail',
      expect.any(String),
      'At once',
      '',
    ]);

    // The outbox job sends it to the SMTP server; the page, read again, lists it as sent.
    await drainOutbox(app.server);
    await smtp.waitForMail((mail) => mail.to === RECIPIENT && mail.subject === 'Your desk was released');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Nothing is waiting to be sent.').waitFor();
    await statuses.getByRole('button', { name: /^Sent/ }).click();
    const sent = page.getByRole('row').filter({ hasText: RECIPIENT });
    await sent.waitFor();
    await expect(sent.getByRole('cell').allInnerTexts()).resolves.toEqual([
      'Released-desk notice',
      RECIPIENT,
      '1',
      expect.any(String),
      expect.stringMatching(/\d{2}:\d{2}$/),
      '',
    ]);
    await axeAtBothWidths(page);
    // An empty status says so, axe clean too.
    await statuses.getByRole('button', { name: /^Sending/ }).click();
    await page.getByText('No message is being sent right now.').waitFor();
    await axeAtBothWidths(page);
    expect(app.problems).toEqual([]);
  });

  it('a user has no Outbox in the menu and is refused the page', async () => {
    const login = await app.server.inject({ method: 'POST', url: '/api/auth/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    const headers = { authorization: `Bearer ${login.json<{ accessToken: string }>().accessToken}` };
    const created = await app.server.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: { email: 'ulla@example.test', firstName: 'Ulla', lastName: 'User' },
    });
    const user = created.json<{ id: string }>();
    await app.server.inject({ method: 'PUT', url: `/api/users/${user.id}/password`, headers, payload: { password: PASSWORD } });

    const page = await app.tab();
    await page.setViewportSize(PHONE);
    await signIn(page, app.baseUrl, 'ulla@example.test', PASSWORD);
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await menu.getByRole('link', { name: 'My reservations' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Outbox' }).count()).toBe(0);
    await page.goto(`${app.baseUrl}/admin/outbox`);
    await page.getByRole('heading', { name: 'Administrators only' }).waitFor();
    expect(await page.getByRole('group', { name: 'Status' }).count()).toBe(0);
    expect(app.problems).toEqual([]);
  });
});
