import { escapeHtml } from '../../shared/html.js';
import type { Language } from '../../shared/languages.js';
import type { Mail } from './mailer.js';
import { mailText } from './messages.js';

/**
 * Every mail the service sends, written in one place (docs/behaviour.md#mails): each template
 * takes plain values (this folder knows no module) and answers the text and HTML parts. Text goes
 * into HTML only through `escapeHtml` (src/shared/html.ts).
 */

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The one layout of every HTML part: paragraphs, each already HTML. */
const layout = (paragraphs: string[]) => paragraphs.map((paragraph) => (paragraph.startsWith('<ul>') ? paragraph : `<p>${paragraph}</p>`)).join('');

const link = (href: string, label: string) => `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;

export interface ReleaseMailData {
  to: string;
  firstName: string;
  deskName: string;
  roomName: string;
  timeZone: string;
  /** The start and the release, as local times of the office (formatLocal). */
  started: string;
  released: string;
  publicUrl: string;
  /** The owner's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** The mail telling the owner their desk was released (docs/behaviour.md#release-of-no-shows). */
export function releaseMail(data: ReleaseMailData): Mail {
  const reservations = `${trimSlash(data.publicUrl)}/reservations`;
  const language = data.language ?? 'en';
  const values = { desk: data.deskName, room: data.roomName, started: data.started, timeZone: data.timeZone, released: data.released };
  const hello = mailText(language, 'hello', { firstName: data.firstName });
  const body = mailText(language, 'release.body', values);
  const yours = mailText(language, 'release.link');
  const text = `${hello}\n\n${body}\n\n${yours}: ${reservations}\n`;
  // The desk's name stands out in the HTML part: the message is escaped, then the name is bolded in it.
  const html = layout([
    escapeHtml(hello),
    escapeHtml(body).replace(escapeHtml(data.deskName), `<b>${escapeHtml(data.deskName)}</b>`),
    link(reservations, yours),
  ]);
  return { to: data.to, subject: mailText(language, 'release.subject', { desk: data.deskName }), text, html };
}

export interface PasswordLinkMailData {
  to: string;
  firstName: string;
  purpose: 'reset' | 'setup';
  /** The link with its token: minted when the mail is sent, never stored in clear. */
  link: string;
  ttlMs: number;
  /** The person's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** "Reset your password" and "your account is ready" (docs/behaviour.md#password-links-and-directory-sign-in). */
export function passwordLinkMail(data: PasswordLinkMailData): Mail {
  const language = data.language ?? 'en';
  const hours = Math.round(data.ttlMs / 3_600_000);
  const validity = mailText(language, 'password.validity', { hours, minutes: Math.round(data.ttlMs / 60_000) });
  const note = mailText(language, 'password.linkNote', { validity });
  const greeting = mailText(language, 'hello', { firstName: data.firstName });
  const body = {
    subject: mailText(language, `password.${data.purpose}.subject`),
    lead: mailText(language, `password.${data.purpose}.lead`),
    action: mailText(language, `password.${data.purpose}.action`),
    after: mailText(language, `password.${data.purpose}.after`, { email: data.to }),
  };
  return {
    to: data.to,
    subject: body.subject,
    text: `${greeting}\n\n${body.lead}\n\n${body.action} ${note}:\n${data.link}\n\n${body.after}\n`,
    html: layout([escapeHtml(greeting), escapeHtml(body.lead), `${link(data.link, body.action)} ${escapeHtml(note)}.`, escapeHtml(body.after)]),
  };
}

export interface InvitationMailData {
  to: string;
  method: 'REQUEST' | 'CANCEL';
  /** Every event is a change of one already mailed (its SEQUENCE above 0). */
  changed: boolean;
  /** What the subject names: "Desk A-01 on 2030-01-17" or "Desk A-01, 3 dates from 2030-01-17". */
  what: string;
  events: { span: string; location: string; link: string }[];
  /** The iTIP message (text/calendar) the mail carries. */
  calendar: { method: 'REQUEST' | 'CANCEL'; content: string };
  /** The recipient's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** An invitation mail (docs/behaviour.md#invitation-mails): one list of events and their iTIP message. */
export function invitationMail(data: InvitationMailData): Mail {
  const language = data.language ?? 'en';
  const state = data.method === 'CANCEL' ? 'cancelled' : data.changed ? 'changed' : 'booked';
  const subject = mailText(language, `invitation.subject.${state}`, { what: data.what });
  const intro = mailText(language, `invitation.intro.${state}`);
  const outro = mailText(language, 'invitation.outro');
  const open = mailText(language, 'invitation.open');
  const lines = data.events.map((event) => `- ${event.span}: ${event.location}\n  ${event.link}`);
  const text = `${intro}\n\n${lines.join('\n')}\n\n${outro}\n`;
  const html = layout([
    escapeHtml(intro),
    `<ul>${data.events.map((event) => `<li>${escapeHtml(event.span)}: ${escapeHtml(event.location)} (${link(event.link, open)})</li>`).join('')}</ul>`,
    escapeHtml(outro),
  ]);
  return { to: data.to, subject, text, html, calendar: data.calendar };
}

export interface ReportStatusMailData {
  to: string;
  firstName: string;
  title: string;
  status: 'OPEN' | 'IN_PROGRESS' | 'RESOLVED';
  note: string | null;
  publicUrl: string;
  /** The reporter's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** The mail telling a reporter their report's status changed (docs/behaviour.md#report-status). */
export function reportStatusMail(data: ReportStatusMailData): Mail {
  const language = data.language ?? 'en';
  const reports = `${trimSlash(data.publicUrl)}/report`;
  const hello = mailText(language, 'hello', { firstName: data.firstName });
  const lead = mailText(language, 'report.lead', { title: data.title, status: data.status });
  const note = data.note ? mailText(language, 'report.note', { note: data.note }) : undefined;
  const yours = mailText(language, 'report.link');
  return {
    to: data.to,
    subject: mailText(language, 'report.subject', { title: data.title, status: data.status }),
    text: `${hello}\n\n${lead}\n\n${note ? `${note}\n\n` : ''}${yours}: ${reports}\n`,
    html: layout([escapeHtml(hello), escapeHtml(lead), ...(note ? [escapeHtml(note)] : []), link(reports, yours)]),
  };
}

export interface ClosureMailData {
  to: string;
  firstName: string;
  reason: string;
  /** The cancelled reservations: desk, its place, and the local start (formatLocal) with the zone. */
  reservations: { deskName: string; place: string; start: string; timeZone: string }[];
  publicUrl: string;
  /** The owner's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** Reservations listed in one closure mail; the rest are counted. */
const CLOSURE_MAIL_LINES = 20;

/** The mail telling an owner their reservations on closed days were cancelled (docs/policies.md#closures-and-holidays). */
export function closureMail(data: ClosureMailData): Mail {
  const language = data.language ?? 'en';
  const reservations = `${trimSlash(data.publicUrl)}/reservations`;
  const shown = data.reservations.slice(0, CLOSURE_MAIL_LINES);
  const more = data.reservations.length - shown.length;
  const line = (r: ClosureMailData['reservations'][number]) =>
    mailText(language, 'closure.line', { desk: r.deskName, place: r.place, start: r.start, timeZone: r.timeZone });
  const hello = mailText(language, 'hello', { firstName: data.firstName });
  const lead = mailText(language, 'closure.lead', { reason: data.reason });
  const andMore = more > 0 ? mailText(language, 'list.more', { count: more }) : undefined;
  const yours = mailText(language, 'yourReservations');
  const text = `${hello}\n\n${lead}\n\n${shown.map((r) => `- ${line(r)}`).join('\n')}${andMore ? `\n- ${andMore}` : ''}\n\n` + `${yours}: ${reservations}\n`;
  const html = layout([
    escapeHtml(hello),
    escapeHtml(lead),
    `<ul>${shown.map((r) => `<li>${escapeHtml(line(r))}</li>`).join('')}${andMore ? `<li>${escapeHtml(andMore)}</li>` : ''}</ul>`,
    link(reservations, yours),
  ]);
  const subject = mailText(language, 'closure.subject', { count: data.reservations.length });
  return { to: data.to, subject, text, html };
}

export interface OnBehalfMailData {
  to: string;
  firstName: string;
  /** The name of who did it: an admin, a manager of the person's team or their delegate. */
  bookerName: string;
  action: 'booked' | 'changed' | 'cancelled';
  deskName: string;
  roomName: string;
  timeZone: string;
  /** The reservation's start and end, as local times of the office (formatLocal). */
  start: string;
  end: string;
  publicUrl: string;
  /** The person's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** A marker no name holds: where a value set in bold goes in an escaped message. */
const BOLD = '\u0000';

/** The mail telling a person someone else booked, changed or cancelled their reservation (docs/policies.md#booking-for-someone-else). */
export function onBehalfMail(data: OnBehalfMailData): Mail {
  const language = data.language ?? 'en';
  const reservations = `${trimSlash(data.publicUrl)}/reservations`;
  const subject = mailText(language, 'onBehalf.subject', { action: data.action, desk: data.deskName });
  const values = { booker: data.bookerName, action: data.action, room: data.roomName, start: data.start, end: data.end, timeZone: data.timeZone };
  const hello = mailText(language, 'hello', { firstName: data.firstName });
  const body = mailText(language, 'onBehalf.body', { ...values, desk: data.deskName });
  const after = mailText(language, 'onBehalf.after', { action: data.action });
  const yours = mailText(language, 'yourReservations');
  const text = `${hello}\n\n${body} ${after}\n\n${yours}: ${reservations}\n`;
  // The desk's name stands out in the HTML part: the message is written with a marker in its place, escaped, then the bold name goes in.
  const bodyHtml = escapeHtml(mailText(language, 'onBehalf.body', { ...values, desk: BOLD })).replace(BOLD, `<b>${escapeHtml(data.deskName)}</b>`);
  const html = layout([escapeHtml(hello), `${bodyHtml} ${escapeHtml(after)}`, link(reservations, yours)]);
  return { to: data.to, subject, text, html };
}

export interface ApprovalRequestsMailData {
  to: string;
  firstName: string;
  /** How many requests the approver may decide are pending now. */
  count: number;
  /** The first few, already in the approver's language: "Ada Lovelace: desk D1 (Room 1), 2030-01-02 09:00 (Europe/Berlin)" (approvalRequestLine). */
  lines: string[];
  publicUrl: string;
  /** The approver's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** One request in the approvers' mail: who, which desk, when. */
export const approvalRequestLine = (
  language: Language,
  request: { name: string; deskName: string; roomName: string; start: string; timeZone: string },
): string =>
  mailText(language, 'approvals.line', {
    name: request.name,
    desk: request.deskName,
    room: request.roomName,
    start: request.start,
    timeZone: request.timeZone,
  });

/**
 * The approvers' mail (docs/policies.md#approvals): every request of one approver queued before it
 * leaves goes out in this one mail, saying how many wait now.
 */
export function approvalRequestsMail(data: ApprovalRequestsMailData): Mail {
  const language = data.language ?? 'en';
  const inbox = `${trimSlash(data.publicUrl)}/approvals`;
  const more = data.count - data.lines.length;
  const hello = mailText(language, 'hello', { firstName: data.firstName });
  const intro = mailText(language, 'approvals.lead', { count: data.count });
  const andMore = more > 0 ? mailText(language, 'list.more', { count: more }) : undefined;
  const action = mailText(language, 'approvals.link');
  const text = `${hello}\n\n${intro}\n\n${data.lines.map((line) => `- ${line}`).join('\n')}${andMore ? `\n- ${andMore}` : ''}\n\n` + `${action}: ${inbox}\n`;
  const html = layout([
    escapeHtml(hello),
    escapeHtml(intro),
    `<ul>${data.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}${andMore ? `<li>${escapeHtml(andMore)}</li>` : ''}</ul>`,
    link(inbox, action),
  ]);
  const subject = mailText(language, 'approvals.subject', { count: data.count });
  return { to: data.to, subject, text, html };
}

export interface ApprovalOutcomeMailData {
  to: string;
  firstName: string;
  outcome: 'APPROVED' | 'REJECTED' | 'EXPIRED';
  deskName: string;
  roomName: string;
  /** The start, a local time of the office (formatLocal), and its zone. */
  start: string;
  timeZone: string;
  /** The approver's note, if any. */
  note: string | null;
  publicUrl: string;
  /** The owner's language (docs/i18n.md#mails-and-the-calendar-feed); English when not given. */
  language?: Language;
}

/** The owner's mail when their request is approved, rejected or expires (docs/policies.md#approvals). */
export function approvalOutcomeMail(data: ApprovalOutcomeMailData): Mail {
  const language = data.language ?? 'en';
  const reservations = `${trimSlash(data.publicUrl)}/reservations`;
  const hello = mailText(language, 'hello', { firstName: data.firstName });
  const what = mailText(language, 'outcome.body', {
    desk: data.deskName,
    room: data.roomName,
    start: data.start,
    timeZone: data.timeZone,
    outcome: data.outcome,
  });
  const note = data.note ? mailText(language, 'outcome.note', { note: data.note }) : '';
  const yours = mailText(language, 'yourReservations');
  const text = `${hello}\n\n${what}\n\n${note ? `${note}\n\n` : ''}${yours}: ${reservations}\n`;
  const html = layout([escapeHtml(hello), escapeHtml(what), ...(note ? [escapeHtml(note)] : []), link(reservations, yours)]);
  return { to: data.to, subject: mailText(language, 'outcome.subject', { desk: data.deskName, outcome: data.outcome }), text, html };
}
