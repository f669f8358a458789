import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { expect } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './app.js';
import { BROWSER_TIME_ZONE, callApi, tokenFor, tomorrowIn, TWO_FRAMES, type BrowserApp } from './browser.js';

/**
 * An office for the language sweeps (docs/i18n.md#the-pseudo-locale): by default every name people
 * typed is written in Greek letters, so that under the pseudo-locale any run of two Latin letters on
 * a page is text of the app that was never translated (German-looking names for the pictures). It has what makes each page show its parts: rooms,
 * desks with equipment, a person and a team, a booking rule and an area, a closure ahead, a room
 * that needs approval with a booking waiting, a report, a lobby display, reservations.
 */

/** The names people typed: Greek for the pseudo-locale sweep (no Latin letter in any of them), German-looking for the pictures. */
export const NAMES = {
  greek: {
    person: { firstName: 'Ελένη', lastName: 'Παππά' },
    admin: { firstName: 'Νίκος', lastName: 'Αλεξίου' },
    location: 'Αθήνα',
    building: 'Ερμής',
    rooms: ['Όλυμπος', 'Δελφοί'],
    desks: ['Δ-1', 'Δ-2', 'Δ-3', 'Δ-4', 'Ε-1'],
    equipment: ['Οθόνη', 'Μεγάλη'],
    team: ['Ομάδα Άλφα', 'Πωλήσεις'],
    area: 'Γωνία',
    closure: 'Απολύμανση',
    report: ['Σπασμένη οθόνη', 'Τρεμοπαίζει'],
    display: 'Είσοδος',
  },
  german: {
    person: { firstName: 'Greta', lastName: 'Schneider' },
    admin: { firstName: 'Jonas', lastName: 'Becker' },
    location: 'Berlin',
    building: 'Spreehaus',
    rooms: ['Atlas', 'Kepler'],
    desks: ['A-1', 'A-2', 'A-3', 'A-4', 'K-1'],
    equipment: ['Monitor', '27 Zoll'],
    team: ['Vertrieb', 'Vertrieb und Beratung'],
    area: 'Fensterreihe',
    closure: 'Grundreinigung',
    report: ['Monitor flackert', 'Das Bild flackert alle paar Sekunden.'],
    display: 'Empfang',
  },
};
export type Names = (typeof NAMES)['greek'];

export const PERSON = { ...NAMES.greek.person, email: 'eleni@example.test', password: 'eleni-password-1' };

export interface Office {
  departmentId: string;
  roomId: string;
  deskId: string;
  adminToken: string;
  personToken: string;
  displayToken: string;
}

export async function greekOffice(app: BrowserApp, names: Names = NAMES.greek): Promise<Office> {
  const adminToken = await tokenFor(app.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const api = <T>(method: string, path: string, body?: unknown, token = adminToken) => callApi<T>(app.baseUrl, token, method, path, body);
  await api('PUT', '/api/self', names.admin);
  const department = await api<{ id: string }>('POST', '/api/departments', { location: names.location, building: names.building, floor: 2 });
  await api('PUT', `/api/departments/${department.id}/settings`, { timeZone: BROWSER_TIME_ZONE, checkInRequired: true });
  const room = await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms`, { name: names.rooms[0] });
  const approvalRoom = await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms`, { name: names.rooms[1] });
  const desks = await api<{ desks: { id: string }[] }>('POST', `/api/departments/${department.id}/rooms/${room.id}/desks/batch`, {
    desks: [{ name: names.desks[0]! }, { name: names.desks[1]! }, { name: names.desks[2]! }, { name: names.desks[3]!, type: 'FIXED' }],
  });
  const deskIds = desks.desks.map((desk) => desk.id);
  const deskId = deskIds[0]!;
  await api('POST', `/api/departments/${department.id}/rooms/${room.id}/desks/${deskId}/equipment`, {
    name: names.equipment[0],
    description: names.equipment[1],
    type: 'MONITOR',
  });
  const approvalDesk = await api<{ id: string }>('POST', `/api/departments/${department.id}/rooms/${approvalRoom.id}/desks`, { name: names.desks[4] });

  const { password } = PERSON;
  const person = { ...names.person, email: PERSON.email };
  const personId = (await api<{ id: string }>('POST', '/api/users', person)).id;
  await api('PUT', `/api/users/${personId}/password`, { password });
  const personToken = await tokenFor(app.baseUrl, PERSON.email, PERSON.password);

  const team = await api<{ id: string }>('POST', '/api/teams', { name: names.team[0], description: names.team[1] });
  await api('POST', `/api/teams/${team.id}/members`, { userIds: [personId], role: 'MEMBER' });
  await api('POST', '/api/admin/policies/areas', { name: names.area, kind: 'DESKS', deskIds: deskIds.slice(1, 3), teamIds: [team.id] });
  await api('POST', '/api/admin/policies/rules', {
    scope: { kind: 'EVERYWHERE' },
    who: { kind: 'EVERYONE' },
    limit: { kind: 'MAX_BOOKINGS', count: 5, per: 'WEEK' },
  });
  await api('POST', '/api/admin/policies/rules', {
    scope: { kind: 'EVERYWHERE' },
    who: { kind: 'TEAM', teamId: team.id },
    limit: { kind: 'BOOKING_WINDOW', days: 30 },
  });
  await api('POST', '/api/approval-requirements', { scope: 'ROOM', roomId: approvalRoom.id });

  const tomorrow = Temporal.PlainDate.from(tomorrowIn(BROWSER_TIME_ZONE));
  const at = (day: Temporal.PlainDate, time: string) => day.toZonedDateTime({ timeZone: BROWSER_TIME_ZONE, plainTime: time }).toInstant().toString();
  await api('POST', '/api/reservation', { deskId, startTime: at(tomorrow, '09:00'), endTime: at(tomorrow, '17:00') });
  await api('POST', '/api/reservation', { deskId: deskIds[1], startTime: at(tomorrow, '09:00'), endTime: at(tomorrow, '17:00') }, personToken);
  await api(
    'POST',
    '/api/reservation',
    { deskId: approvalDesk.id, startTime: at(tomorrow.add({ days: 1 }), '09:00'), endTime: at(tomorrow.add({ days: 1 }), '17:00') },
    personToken,
  );
  await api('POST', '/api/closures', {
    scope: 'DEPARTMENT',
    departmentId: department.id,
    reason: names.closure,
    dates: [tomorrow.add({ days: 20 }).toString()],
    onExisting: 'keep',
  });
  await api('POST', '/api/report', { title: names.report[0], description: names.report[1], reportedBy: personId, deskId }, personToken);
  const display = await api<{ token: string }>('POST', `/api/departments/${department.id}/displays`, { name: names.display });
  return { departmentId: department.id, roomId: room.id, deskId, adminToken, personToken, displayToken: display.token };
}

/** The pages of the app an administrator opens (web/src/App.tsx's ROUTES), by address. */
export const adminPages = (office: Office) => [
  '/',
  '/reservations',
  '/report',
  '/profile',
  '/people',
  '/approvals',
  `/d/${office.deskId}`,
  '/admin/departments',
  `/admin/departments/${office.departmentId}`,
  `/admin/departments/${office.departmentId}/rooms/${office.roomId}`,
  '/admin/users',
  '/admin/teams',
  '/admin/reports',
  '/admin/stats',
  '/admin/attendance',
  '/admin/closures',
  '/admin/outbox',
  '/admin/policies',
  '/admin/today',
  '/admin/privacy',
  '/admin/displays',
  '/no-such-page',
];

/** The pages anyone opens without signing in. */
export const publicPages = (office: Office) => [
  '/sign-in',
  '/forgot-password',
  '/reset-password?token=not-a-real-one',
  `/display/${encodeURIComponent(office.displayToken)}`,
];

/** Waits until the page shows its heading and no spinner (every query it started has answered). */
export async function settled(page: Page) {
  await page.locator('h1').first().waitFor();
  await expect.poll(() => page.locator('.loading, .spinner').count(), { timeout: 20_000 }).toBe(0);
  await page.evaluate(TWO_FRAMES);
}

/** Signs in through the form, whatever the language of its labels. */
export async function signInAnyLanguage(page: Page, baseUrl: string, email: string, password: string, lang: string) {
  await page.goto(`${baseUrl}/?lang=${lang}`);
  await page.locator('input[type=email]').fill(email);
  await page.locator('input[type=password]').fill(password);
  await page.locator('button[type=submit]').click();
  await page.locator('.topbar nav a[aria-current=page]').waitFor();
}

/**
 * Text that is the same in every language, so never a message: the product's name, the languages'
 * own names in the picker, a configuration key, e-mail and web addresses, IANA time zones.
 */
const NEVER_TRANSLATED = [
  '^Deskbook$',
  '^PUBLIC_URL$',
  '^(English|Deutsch|Français)$',
  '^\\S+@\\S+$',
  '^https?://\\S+$',
  '^[A-Z][A-Za-z_]+(/[A-Za-z_+-]+)+$',
  '^UTC$',
  '^GMT([+-]\\d+(:\\d\\d)?)?$',
];

/**
 * The texts on the page (under `selector`) that are not pseudo-translated: every text node with two
 * Latin letters in a row must lie within "[…]" (a whole message), and so must the names given in
 * attributes (aria-label, placeholder, title, alt) and the document's title. The office's data is
 * Greek (greekOffice), so it never counts; `data` names other texts that are data, not the app's.
 */
export async function untranslated(page: Page, selector = 'body', data: string[] = []): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const never = ${JSON.stringify(NEVER_TRANSLATED)}.map((pattern) => new RegExp(pattern));
    const data = new Set(${JSON.stringify(data)});
    const flagged = (text) => /[A-Za-z]{2}/.test(text) && !data.has(text) && !never.some((pattern) => pattern.test(text)) && !(text.startsWith('[') && text.endsWith(']'));
    const out = [];
    // "<page> · Deskbook" (hooks.ts, useTitle): the page's part is a message.
    const title = document.title.replace(/ · Deskbook$/, '');
    if (flagged(title)) out.push('title=' + document.title);
    for (const root of document.querySelectorAll(${JSON.stringify(selector)})) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent.trim();
        const element = node.parentElement;
        if (!element || element.closest('script, style, noscript, [hidden]')) continue;
        if (flagged(text)) out.push(text);
      }
      for (const element of root.querySelectorAll('[aria-label], [placeholder], [title], [alt], [aria-roledescription]')) {
        for (const name of ['aria-label', 'placeholder', 'title', 'alt', 'aria-roledescription']) {
          const value = element.getAttribute(name);
          if (value && flagged(value)) out.push(name + '=' + value);
        }
      }
    }
    return [...new Set(out)];
  })()`)) as string[];
}
