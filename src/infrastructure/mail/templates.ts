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
}

const STATUS_WORDS: Record<ReportStatusMailData['status'], string> = { OPEN: 'open', IN_PROGRESS: 'in progress', RESOLVED: 'resolved' };

/** The mail telling a reporter their report's status changed (docs/behaviour.md#report-status). */
export function reportStatusMail(data: ReportStatusMailData): Mail {
  const reports = `${trimSlash(data.publicUrl)}/report`;
  const status = STATUS_WORDS[data.status];
  const lead = `your report "${data.title}" is now ${status}.`;
  const note = data.note ? `The office team wrote: ${data.note}` : undefined;
  return {
    to: data.to,
    subject: `Your report is ${status}: ${data.title}`,
    text: `Hello ${data.firstName},\n\n${lead}\n\n${note ? `${note}\n\n` : ''}Your reports: ${reports}\n`,
    html: layout([escapeHtml(`Hello ${data.firstName},`), escapeHtml(lead), ...(note ? [escapeHtml(note)] : []), link(reports, 'Your reports')]),
  };
}

export interface ClosureMailData {
  to: string;
  firstName: string;
  reason: string;
  /** The cancelled reservations: desk, its place, and the local start (formatLocal) with the zone. */
  reservations: { deskName: string; place: string; start: string; timeZone: string }[];
  publicUrl: string;
}

/** Reservations listed in one closure mail; the rest are counted. */
const CLOSURE_MAIL_LINES = 20;

/** The mail telling an owner their reservations on closed days were cancelled (docs/policies.md#closures-and-holidays). */
export function closureMail(data: ClosureMailData): Mail {
  const reservations = `${trimSlash(data.publicUrl)}/reservations`;
  const shown = data.reservations.slice(0, CLOSURE_MAIL_LINES);
  const more = data.reservations.length - shown.length;
  const line = (r: ClosureMailData['reservations'][number]) => `desk ${r.deskName} (${r.place}), ${r.start} (${r.timeZone})`;
  const intro = `Hello ${data.firstName},\n\nthe office is closed (${data.reason}), so these reservations of yours were cancelled:`;
  const text =
    `${intro}\n\n${shown.map((r) => `- ${line(r)}`).join('\n')}${more > 0 ? `\n- and ${more} more` : ''}\n\n` + `Your reservations: ${reservations}\n`;
  const html = layout([
    `Hello ${escapeHtml(data.firstName)},`,
    `the office is closed (${escapeHtml(data.reason)}), so these reservations of yours were cancelled:`,
    `<ul>${shown.map((r) => `<li>${escapeHtml(line(r))}</li>`).join('')}${more > 0 ? `<li>and ${more} more</li>` : ''}</ul>`,
    link(reservations, 'Your reservations'),
  ]);
  const subject =
    data.reservations.length === 1 ? 'Reservation cancelled: the office is closed' : `${data.reservations.length} reservations cancelled: the office is closed`;
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
}

/** The mail telling a person someone else booked, changed or cancelled their reservation (docs/policies.md#booking-for-someone-else). */
export function onBehalfMail(data: OnBehalfMailData): Mail {
  const reservations = `${trimSlash(data.publicUrl)}/reservations`;
  const what = { booked: 'booked a desk for you', changed: 'changed your reservation', cancelled: 'cancelled your reservation' }[data.action];
  const subject = {
    booked: `Booked for you: desk ${data.deskName}`,
    changed: `Changed for you: desk ${data.deskName}`,
    cancelled: `Cancelled for you: desk ${data.deskName}`,
  }[data.action];
  const span = `${data.start} to ${data.end} (${data.timeZone})`;
  const text =
    `Hello ${data.firstName},\n\n` +
    `${data.bookerName} ${what}: desk ${data.deskName} in ${data.roomName}, ${span}. ` +
    `${data.action === 'cancelled' ? 'You need do nothing.' : 'The reservation is yours; it is in your list of reservations.'}\n\n` +
    `Your reservations: ${reservations}\n`;
  const html = layout([
    `Hello ${escapeHtml(data.firstName)},`,
    `${escapeHtml(data.bookerName)} ${escapeHtml(what)}: desk <b>${escapeHtml(data.deskName)}</b> in ${escapeHtml(data.roomName)}, ${escapeHtml(span)}. ` +
      escapeHtml(data.action === 'cancelled' ? 'You need do nothing.' : 'The reservation is yours; it is in your list of reservations.'),
    link(reservations, 'Your reservations'),
  ]);
  return { to: data.to, subject, text, html };
}

export interface ApprovalRequestsMailData {
  to: string;
  firstName: string;
  /** How many requests the approver may decide are pending now. */
  count: number;
  /** The first few: "Ada Lovelace: desk D1 (Room 1), 2030-01-02 09:00 (Europe/Berlin)". */
  lines: string[];
  publicUrl: string;
}

/**
 * The approvers' mail (docs/policies.md#approvals): every request of one approver queued before it
 * leaves goes out in this one mail, saying how many wait now.
 */
export function approvalRequestsMail(data: ApprovalRequestsMailData): Mail {
  const inbox = `${trimSlash(data.publicUrl)}/approvals`;
  const more = data.count - data.lines.length;
  const intro = data.count === 1 ? 'a booking awaits your approval:' : `${data.count} bookings await your approval:`;
  const text =
    `Hello ${data.firstName},\n\n${intro}\n\n${data.lines.map((line) => `- ${line}`).join('\n')}${more > 0 ? `\n- and ${more} more` : ''}\n\n` +
    `Approve or reject them: ${inbox}\n`;
  const html = layout([
    `Hello ${escapeHtml(data.firstName)},`,
    escapeHtml(intro),
    `<ul>${data.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}${more > 0 ? `<li>and ${more} more</li>` : ''}</ul>`,
    link(inbox, 'Approve or reject them'),
  ]);
  const subject = data.count === 1 ? 'A booking awaits your approval' : `${data.count} bookings await your approval`;
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
}

const OUTCOME_WORDS: Record<ApprovalOutcomeMailData['outcome'], { subject: string; sentence: string }> = {
  APPROVED: { subject: 'approved', sentence: 'was approved; the desk is yours' },
  REJECTED: { subject: 'rejected', sentence: 'was rejected, so the reservation was cancelled' },
  EXPIRED: { subject: 'not approved in time', sentence: 'was not approved before it began, so the reservation was cancelled' },
};

/** The owner's mail when their request is approved, rejected or expires (docs/policies.md#approvals). */
export function approvalOutcomeMail(data: ApprovalOutcomeMailData): Mail {
  const reservations = `${trimSlash(data.publicUrl)}/reservations`;
  const words = OUTCOME_WORDS[data.outcome];
  const what = `your booking of desk ${data.deskName} in ${data.roomName}, starting ${data.start} (${data.timeZone}), ${words.sentence}.`;
  const note = data.note ? `Note: ${data.note}` : '';
  const text = `Hello ${data.firstName},\n\n${what}\n\n${note ? `${note}\n\n` : ''}Your reservations: ${reservations}\n`;
  const html = layout([`Hello ${escapeHtml(data.firstName)},`, escapeHtml(what), ...(note ? [escapeHtml(note)] : []), link(reservations, 'Your reservations')]);
  return { to: data.to, subject: `Desk ${data.deskName}: booking ${words.subject}`, text, html };
}
