import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { expectAccessibleAtBothWidths, screenshots, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

/**
 * The profile page's "Notifications" section and the push service worker in Chromium
 * (docs/notifications.md#the-web-app). Headless Chromium here reaches no push service, so
 * `pushManager.subscribe` cannot succeed: the section's switches are driven for real, turning push
 * on shows the browser's refusal and stores nothing, and the one service worker (sw.js) is tested by delivering a push
 * to it through the DevTools protocol (ServiceWorker.deliverPushMessage) and reading the
 * notification it showed.
 */
describe('the notifications section of the profile page', () => {
  let app: BrowserApp;
  let smtp: TestSmtp;
  let token: string;

  const api = async (path: string, init: RequestInit = {}) =>
    fetch(`${app.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await startBrowserApp({ SMTP_URL: smtp.url });
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { accessToken: string }).accessToken;
    await app.context.grantPermissions(['notifications'], { origin: app.baseUrl });
  });

  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  it('saves each switch at once, shows no mail switch where the event has no mail, and is accessible', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto(`${app.baseUrl}/profile`);
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByText('Push is off in this browser.').waitFor();
    const mailReleased = section.getByRole('checkbox', { name: 'Mail: My desk was released because nobody checked in' });
    const pushCheckIn = section.getByRole('checkbox', { name: 'Push: Check-in of my booking opened' });
    expect(await mailReleased.isChecked()).toBe(true);
    expect(await pushCheckIn.isChecked()).toBe(true);
    expect(await section.getByRole('checkbox', { name: 'Mail: Check-in of my booking opened' }).count()).toBe(0);
    expect(
      await section
        .getByRole('row', { name: /Check-in of my booking opened/ })
        .getByText('No mail')
        .count(),
    ).toBe(1);

    const saved = page.waitForResponse((response) => response.url().endsWith('/api/self/notification-preferences') && response.request().method() === 'PUT');
    await mailReleased.uncheck();
    expect((await saved).status()).toBe(200);
    const saved2 = page.waitForResponse((response) => response.url().endsWith('/api/self/notification-preferences') && response.request().method() === 'PUT');
    await pushCheckIn.uncheck();
    await saved2;
    const stored = (await (await api('/api/self/notification-preferences')).json()) as {
      events: Array<{ event: string; push: boolean; mail: boolean | null }>;
    };
    expect(stored.events.find((entry) => entry.event === 'released')).toEqual({ event: 'released', push: true, mail: false });
    expect(stored.events.find((entry) => entry.event === 'check-in-open')).toEqual({ event: 'check-in-open', push: false, mail: null });

    await page.reload();
    await section.getByText('Push is off in this browser.').waitFor();
    expect(await mailReleased.isChecked()).toBe(false);
    expect(await pushCheckIn.isChecked()).toBe(false);
    await expectAccessibleAtBothWidths(page, 'the profile page with its notifications section');
    await screenshots(page, 'profile-notifications', { pictures: false });
    await page.close();
  });

  // Before the next test: once a subscribe to an unreachable push service is pending on the
  // registration, this Chromium delivered no DevTools push to it any more (seen on 2026-11-26).
  it('the one service worker (sw.js) shows a pushed message as a notification with its tag and link', async () => {
    const page = await app.tab();
    await page.goto(`${app.baseUrl}/sign-in`);
    const scope = `${app.baseUrl}/`;
    await page.evaluate(`navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => navigator.serviceWorker.ready)`);
    const cdp = await page.context().newCDPSession(page);
    const registrations = new Map<string, string>();
    const activated = new Set<string>();
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> }) => {
      for (const registration of event.registrations) {
        if (registration.scopeURL !== scope) continue;
        if (registration.isDeleted) registrations.delete(registration.registrationId);
        else registrations.set(registration.registrationId, registration.scopeURL);
      }
    });
    cdp.on('ServiceWorker.workerVersionUpdated', (event: { versions: Array<{ registrationId: string; status: string }> }) => {
      for (const version of event.versions) if (version.status === 'activated') activated.add(version.registrationId);
    });
    await cdp.send('ServiceWorker.enable');
    const registrationId = async () => {
      await expect.poll(() => [...registrations.keys()].find((id) => activated.has(id)), { timeout: 10_000 }).toBeDefined();
      return [...registrations.keys()].find((id) => activated.has(id))!;
    };
    const message = {
      title: 'Check-in is open',
      body: 'Desk O-7 (Open space), 09:00 (Europe/Berlin).',
      url: '/reservations',
      tag: 'reservation-1',
      event: 'check-in-open',
    };
    const shown = () =>
      page.evaluate(
        `navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))`,
      );
    // Delivered again until it shows (a worker just activated may miss the first): the tag keeps it one notification.
    await expect
      .poll(
        async () => {
          await cdp.send('ServiceWorker.deliverPushMessage', { origin: app.baseUrl, registrationId: await registrationId(), data: JSON.stringify(message) });
          return shown();
        },
        { timeout: 15_000, interval: 500 },
      )
      .toEqual([{ title: message.title, body: message.body, tag: message.tag, url: '/reservations' }]);
    // The worker is served as JavaScript and revalidated on every load; the push-only worker's old
    // address answers the same one worker, so that browsers that registered it update to it (docs/pwa.md#the-one-worker).
    const served = await fetch(`${app.baseUrl}/sw.js`);
    expect(served.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(served.headers.get('cache-control')).toBe('no-cache');
    expect(await (await fetch(`${app.baseUrl}/push-sw.js`)).text()).toBe(await served.text());
    expect(app.problems).toEqual([]);
    await page.close();
  });
  it('turning push on without a reachable push service shows why and stores nothing', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto(`${app.baseUrl}/profile`);
    const section = page.getByRole('region', { name: 'Notifications' });
    await section.getByRole('button', { name: 'Turn push on in this browser' }).click();
    // The busy state ("Turning on…") is not awaited: the app's one worker is registered already
    // (after the page's load, docs/pwa.md#the-one-worker), so a browser that refuses at once may
    // end it before a test could see it.
    // No push service answers here: the section says why, either after its wait (15 s: "The
    // browser's push service did not answer") or at once with the browser's own refusal (a window
    // without a profile of its own, as the tests' are, may refuse to subscribe straight away).
    const alert = section.getByRole('alert');
    await alert.waitFor({ timeout: 30_000 });
    expect((await alert.textContent())?.trim().length).toBeGreaterThan(10);
    await section.getByRole('button', { name: 'Turn push on in this browser' }).waitFor();
    expect(await (await api('/api/self/push-subscriptions')).json()).toEqual([]);
    // The app's one worker, registered from /sw.js, with the whole app as its scope.
    expect(await page.evaluate(`navigator.serviceWorker.getRegistration('/').then((r) => r && r.active && r.active.scriptURL)`)).toBe(`${app.baseUrl}/sw.js`);
    await page.close();
  });
});
