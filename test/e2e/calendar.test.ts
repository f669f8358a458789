import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/app.js';
import { screenshots, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { parseCalendar } from '../helpers/ical.js';
import { startSmtp, type TestSmtp } from '../helpers/smtp.js';

/**
 * The profile page's "Calendar" section in a real browser (docs/behaviour.md#calendar-feed):
 * create the private feed link, copy it, subscribe to it (read it as a calendar app would),
 * replace it (the old link answers 404), and switch the invitation mails off.
 */
describe('the calendar section of the profile page', () => {
  let app: BrowserApp;
  let smtp: TestSmtp;
  let token: string;
  let reservationId: string;

  const api = async (path: string, init: RequestInit = {}) =>
    fetch(`${app.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

  beforeAll(async () => {
    // With a mail server: without one the invitation switch is off and says why (docs/configuration.md#mail).
    smtp = await startSmtp();
    app = await startBrowserApp({ SMTP_URL: smtp.url });
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    token = ((await login.json()) as { accessToken: string }).accessToken;
    const department = (await (
      await api('/api/departments', { method: 'POST', body: JSON.stringify({ location: 'Berlin', building: 'HQ', floor: 3 }) })
    ).json()) as {
      id: string;
    };
    const room = (await (await api(`/api/departments/${department.id}/rooms`, { method: 'POST', body: JSON.stringify({ name: 'Atlas' }) })).json()) as {
      id: string;
    };
    const desk = (await (
      await api(`/api/departments/${department.id}/rooms/${room.id}/desks`, { method: 'POST', body: JSON.stringify({ name: 'A-01' }) })
    ).json()) as {
      id: string;
    };
    const start = Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 86_400_000;
    const booked = await api('/api/reservation', {
      method: 'POST',
      body: JSON.stringify({ deskId: desk.id, startTime: new Date(start).toISOString(), endTime: new Date(start + 8 * 3_600_000).toISOString() }),
    });
    reservationId = ((await booked.json()) as { id: string }).id;
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
  });

  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  it('creates, copies and replaces the feed link, and switches the invitation mails off', async () => {
    const page = await app.tab();
    await signIn(page, app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto(`${app.baseUrl}/profile`);
    const section = page.getByRole('region', { name: 'Calendar' });
    await section.getByText('You have no calendar link yet.').waitFor();

    await section.getByRole('button', { name: 'Create a calendar link' }).click();
    const field = section.getByLabel('Your calendar link');
    await field.waitFor();
    const url = await field.inputValue();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await section.getByRole('button', { name: 'Copy the link' }).click();
    await section.getByText('The link is copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);

    // What a calendar app subscribing to the link reads.
    const feedPath = new URL(url).pathname;
    const feed = await fetch(`${app.baseUrl}${feedPath}`);
    expect(feed.status).toBe(200);
    const events = parseCalendar(await feed.text()).events;
    expect(events.map((event) => event.uid.split('@')[0])).toEqual([reservationId]);
    expect(events[0]!.location).toBe('Berlin · HQ · Floor 3 · Atlas · A-01');

    await screenshots(page, 'profile-calendar');

    // Seen again later, the link is no longer shown: only that one exists, and how to get a new one.
    await page.reload();
    await section.getByText(/You created a calendar link on/).waitFor();
    expect(await section.getByLabel('Your calendar link').count()).toBe(0);
    await section.getByRole('button', { name: 'Replace the link' }).click();
    const replaced = await section.getByLabel('Your calendar link').inputValue();
    expect(replaced).not.toBe(url);
    expect((await fetch(`${app.baseUrl}${feedPath}`)).status).toBe(404);
    expect((await fetch(`${app.baseUrl}${new URL(replaced).pathname}`)).status).toBe(200);

    const mails = section.getByLabel('Mail me a calendar invitation when I book, change or cancel a reservation');
    expect(await mails.isChecked()).toBe(true);
    await mails.uncheck();
    await expect.poll(async () => ((await (await api('/api/self/calendar-settings')).json()) as { invitationMails: boolean }).invitationMails).toBe(false);
    await page.reload();
    expect(await section.getByLabel('Mail me a calendar invitation when I book, change or cancel a reservation').isChecked()).toBe(false);

    expect(app.problems).toEqual([]);
  });
});
