import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userPreferences } from '../../../src/db/schema.js';
import { createTestApp, drainOutbox, expectProblem, type TestApp } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { parseCalendar } from '../../helpers/ical.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

/**
 * The caller's preferences (docs/i18n.md#choosing-the-language): the language, null for the
 * server's DEFAULT_LANGUAGE; unknown languages are 400 naming the field; each person sees and
 * changes only their own; a password link mail is written in the person's language; the
 * organisation's default language (set by an admin) applies to everyone who chose none.
 */

const PASSWORD = 'preferences-password-1';

describe('preferences: the language', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const tokens: Record<string, string> = {};
  const emails: Record<string, string> = {};

  const get = (token: string) => t.request({ method: 'GET', url: '/api/self/preferences', token });
  const put = (token: string, payload: unknown) =>
    t.request({ method: 'PUT', url: '/api/self/preferences', token, payload: payload as Record<string, unknown> });

  beforeAll(async () => {
    smtp = await startSmtp();
    // The server's default is French here, so that "no choice" is seen to follow it.
    t = await createTestApp({ env: { SMTP_URL: smtp.url, DEFAULT_LANGUAGE: 'fr', PASSWORD_MAIL_COOLDOWN: '0', PUBLIC_URL: 'https://desk.example.test' } });
    for (const name of ['greta', 'paul']) {
      const user = await t.createUser({ email: `${name}@example.test`, firstName: name === 'greta' ? 'Greta' : 'Paul', lastName: 'Pref', password: PASSWORD });
      emails[name] = user.email;
      tokens[name] = (await t.login(user.email, PASSWORD)).accessToken;
    }
    await drainOutbox(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('starts with no choice: the server default is in effect', async () => {
    const response = await get(tokens.greta!);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ language: null, effectiveLanguage: 'fr', defaultLanguage: 'fr', languages: ['en', 'de', 'fr'] });
  });

  it('keeps a chosen language for its owner only, and null goes back to the default', async () => {
    const saved = await put(tokens.greta!, { language: 'de' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ language: 'de', effectiveLanguage: 'de', defaultLanguage: 'fr' });
    expect((await get(tokens.greta!)).json()).toMatchObject({ language: 'de', effectiveLanguage: 'de' });
    // Paul's stays his own.
    expect((await get(tokens.paul!)).json()).toMatchObject({ language: null, effectiveLanguage: 'fr' });
    expect((await put(tokens.paul!, { language: null })).json()).toMatchObject({ language: null, effectiveLanguage: 'fr' });
    expect((await put(tokens.paul!, { language: 'en' })).json()).toMatchObject({ language: 'en', effectiveLanguage: 'en' });
    expect((await put(tokens.paul!, { language: null })).json()).toMatchObject({ language: null, effectiveLanguage: 'fr' });
  });

  it('refuses a language not shipped, a missing or extra field, naming it, and changes nothing', async () => {
    for (const payload of [{ language: 'xx' }, { language: 'en-XA' }, { language: 42 }, {}, { language: 'de', theme: 'dark' }]) {
      const problem = expectProblem(await put(tokens.greta!, payload), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.field).join(' ')).toMatch(/language|theme/);
    }
    expect((await get(tokens.greta!)).json()).toMatchObject({ language: 'de' });
  });

  it('needs a signed-in caller', async () => {
    expectProblem(await t.request({ method: 'GET', url: '/api/self/preferences' }), 401);
    expectProblem(await t.request({ method: 'PUT', url: '/api/self/preferences', payload: { language: 'de' } }), 401);
  });

  it('writes the password link mail in the person’s language, else in the default', async () => {
    // Greta chose German; Paul chose nothing, so the server's French applies.
    const since = smtp.mails.length;
    for (const name of ['greta', 'paul'])
      expect((await t.request({ method: 'POST', url: '/api/password/forgot', payload: { email: emails[name] } })).statusCode).toBe(200);
    await drainOutbox(t.app);
    const greta = await smtp.waitForMail((mail) => mail.seq >= since && mail.envelopeTo.includes(emails.greta!));
    const paul = await smtp.waitForMail((mail) => mail.seq >= since && mail.envelopeTo.includes(emails.paul!));
    expect(greta.subject).toBe('Ihr Deskbook-Passwort zurücksetzen');
    expect(greta.text).toMatch(/^Hallo Greta,\n\njemand \(hoffentlich Sie\)/);
    expect(greta.text).toContain('Neues Passwort wählen (der Link gilt einmal, 1 Stunde lang):\nhttps://desk.example.test/reset-password?token=');
    expect(greta.html).toContain('>Neues Passwort wählen</a> (der Link gilt einmal, 1 Stunde lang).');
    expect(paul.subject).toBe('Réinitialiser votre mot de passe Deskbook');
    expect(paul.text).toMatch(/^Bonjour Paul,/);
  });

  it('writes the invitation mail and the calendar feed in the person’s language; a change of language changes the feed’s ETag', async () => {
    const db = t.database.handle.db;
    const department = await insertDepartment(db, { location: 'Berlin', building: 'HQ', floor: 3 });
    const room = await insertRoom(db, department.id, { name: 'Atlas' });
    const desk = await insertDesk(db, room.id, { name: 'A-01' });
    const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 86_400_000);
    const since = smtp.mails.length;
    const booked = await t.request({
      method: 'POST',
      url: '/api/reservation',
      token: tokens.greta!,
      payload: { deskId: desk.id, startTime: start.toISOString(), endTime: new Date(start.getTime() + 4 * 3_600_000).toISOString() },
    });
    expect(booked.statusCode, booked.body).toBe(200);
    await drainOutbox(t.app);
    const invitation = await smtp.waitForMail((mail) => mail.seq >= since && mail.envelopeTo.includes(emails.greta!) && mail.calendar !== undefined);
    expect(invitation.subject).toBe(`Gebucht: Arbeitsplatz A-01 am ${start.toISOString().slice(0, 10)}`);
    expect(invitation.text).toMatch(/^Ihre Arbeitsplatzreservierungen:\n/);
    expect(invitation.text).toContain('Auf Ihrer Profilseite können Sie diese Mails abschalten.');
    expect(parseCalendar(invitation.calendar!.content).events[0]!.summary).toBe('Arbeitsplatz A-01');
    // The floor in the place is the language's too (the database writes "Floor 3").
    expect(invitation.text).toContain(': Berlin · HQ · Etage 3 · Atlas · A-01\n');
    expect(parseCalendar(invitation.calendar!.content).events[0]!.location).toBe('Berlin · HQ · Etage 3 · Atlas · A-01');

    const feed = await t.request({ method: 'POST', url: '/api/self/calendar-feed', token: tokens.greta! });
    const path = new URL(feed.json<{ url: string }>().url).pathname;
    const german = await t.request({ method: 'GET', url: path });
    expect(german.statusCode).toBe(200);
    const calendar = parseCalendar(german.body);
    expect(calendar.name).toBe('Deskbook-Reservierungen');
    expect(calendar.events[0]!.summary).toBe('Arbeitsplatz A-01');
    expect(calendar.events[0]!.description).toMatch(/^Arbeitsplatzreservierung: Berlin · HQ · Etage 3 · Atlas · A-01\n/);
    expect(calendar.events[0]!.location).toBe('Berlin · HQ · Etage 3 · Atlas · A-01');
    // Back to the server's default (French): the same rows, another text, another ETag; the old one is no 304.
    expect((await put(tokens.greta!, { language: null })).statusCode).toBe(200);
    const french = await t.request({ method: 'GET', url: path, headers: { 'if-none-match': String(german.headers.etag) } });
    expect(french.statusCode).toBe(200);
    expect(french.headers.etag).not.toBe(german.headers.etag);
    expect(parseCalendar(french.body).events[0]!.summary).toBe('Poste A-01');
    expect(parseCalendar(french.body).events[0]!.location).toBe('Berlin · HQ · Étage 3 · Atlas · A-01');
    expect((await put(tokens.greta!, { language: 'de' })).statusCode).toBe(200);
  });

  it('writes the QR label sheet in the language of the admin who asks for it, and names it in <html lang>', async () => {
    const db = t.database.handle.db;
    const department = await insertDepartment(db, { location: 'Hamburg', building: 'Hafen', floor: 2 });
    const room = await insertRoom(db, department.id, { name: 'Elbe' });
    await insertDesk(db, room.id, { name: 'E-01' });
    const empty = await insertRoom(db, department.id, { name: 'Leer' });
    const admin = await t.adminToken();
    const sheet = (roomId: string) => t.request({ method: 'GET', url: `/api/rooms/${roomId}/qr-labels`, token: admin });
    expect((await put(admin, { language: 'de' })).statusCode).toBe(200);
    const german = await sheet(room.id);
    expect(german.statusCode).toBe(200);
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain('<title>QR-Etiketten: Elbe</title>');
    expect(german.body).toContain('<span>Hamburg, Hafen, Etage 2</span><small>Scannen zum Einchecken oder Reservieren</small>');
    expect((await sheet(empty.id)).body).toContain('<p>Dieser Raum hat keine Arbeitsplätze.</p>');
    // No choice: the server's default (French here).
    expect((await put(admin, { language: null })).statusCode).toBe(200);
    const french = await sheet(room.id);
    expect(french.body).toContain('<html lang="fr">');
    expect(french.body).toContain('<small>Scannez pour vous enregistrer ou réserver</small>');
  });

  it('follows the organisation’s default language where a person chose none: pages, mails, the feed; only admins set it', async () => {
    const admin = await t.adminToken();
    const settings = (token: string, payload: unknown) =>
      t.request({ method: 'PATCH', url: '/api/organisation/settings', token, payload: payload as Record<string, unknown> });
    // Greta chose German; Paul chose nothing (the server's French so far).
    expect((await put(tokens.paul!, { language: null })).statusCode).toBe(200);
    expectProblem(await settings(tokens.paul!, { defaultLanguage: 'de' }), 403);
    for (const payload of [{ defaultLanguage: 'xx' }, { defaultLanguage: 'en-XA' }, { defaultLanguage: 7 }]) {
      const problem = expectProblem(await settings(admin, payload), 400, 'VALIDATION_FAILED');
      expect(problem.errors?.map((error) => error.field).join(' ')).toMatch(/defaultLanguage/);
    }
    expect((await t.request({ method: 'GET', url: '/api/organisation/settings', token: tokens.paul! })).json()).toMatchObject({ defaultLanguage: null });

    const changed = await settings(admin, { defaultLanguage: 'de' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ defaultLanguage: 'de', nameVisibility: 'nobody', worksCouncilMode: true });
    expect((await get(tokens.paul!)).json()).toEqual({ language: null, effectiveLanguage: 'de', defaultLanguage: 'de', languages: ['en', 'de', 'fr'] });
    // A person's own choice still wins.
    expect((await put(tokens.greta!, { language: 'en' })).statusCode).toBe(200);
    expect((await get(tokens.greta!)).json()).toMatchObject({ language: 'en', effectiveLanguage: 'en', defaultLanguage: 'de' });

    // Paul's password mail is German now.
    const since = smtp.mails.length;
    expect((await t.request({ method: 'POST', url: '/api/password/forgot', payload: { email: emails.paul } })).statusCode).toBe(200);
    await drainOutbox(t.app);
    const mail = await smtp.waitForMail((candidate) => candidate.seq >= since && candidate.envelopeTo.includes(emails.paul!));
    expect(mail.subject).toBe('Ihr Deskbook-Passwort zurücksetzen');
    // So is his calendar feed's name.
    const feed = await t.request({ method: 'POST', url: '/api/self/calendar-feed', token: tokens.paul! });
    const calendar = await t.request({ method: 'GET', url: new URL(feed.json<{ url: string }>().url).pathname });
    expect(parseCalendar(calendar.body).name).toBe('Deskbook-Reservierungen');

    // Null: back to the server's DEFAULT_LANGUAGE.
    expect((await settings(admin, { defaultLanguage: null })).json()).toMatchObject({ defaultLanguage: null });
    expect((await get(tokens.paul!)).json()).toMatchObject({ language: null, effectiveLanguage: 'fr', defaultLanguage: 'fr' });
    expect((await put(tokens.greta!, { language: 'de' })).statusCode).toBe(200);
  });

  it('forgets the preference with its person', async () => {
    const admin = await t.adminToken();
    const user = await t.createUser({ email: 'leaving@example.test', firstName: 'Lea', lastName: 'Ving', password: PASSWORD });
    const token = (await t.login(user.email, PASSWORD)).accessToken;
    expect((await put(token, { language: 'de' })).statusCode).toBe(200);
    const removed = await t.request({ method: 'DELETE', url: `/api/users/${user.id}`, token: admin });
    expect([200, 204]).toContain(removed.statusCode);
    const rows = await t.database.handle.db.select().from(userPreferences).where(eq(userPreferences.userId, user.id));
    expect(rows).toEqual([]);
  });
});
