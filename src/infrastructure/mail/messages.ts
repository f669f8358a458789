import { IntlMessageFormat } from 'intl-messageformat';
import type { Language } from '../../shared/languages.js';

/**
 * The words of the mails in each language Deskbook ships (docs/i18n.md#mails-and-the-calendar-feed),
 * as ICU messages like the web app's. English is the source; a unit test holds every language to
 * the same keys. Values are plain text: the templates escape them for HTML.
 */
const EN = {
  hello: 'Hello {firstName},',
  'password.validity': '{hours, plural, =0 {{minutes, plural, one {# minute} other {# minutes}}} one {# hour} other {# hours}}',
  'password.linkNote': '(the link works once, for {validity})',
  'password.reset.subject': 'Reset your Deskbook password',
  'password.reset.lead': 'someone (hopefully you) asked to reset the password of your Deskbook account.',
  'password.reset.action': 'Choose a new password',
  'password.reset.after': 'If you did not ask for this, ignore this mail: your password stays as it is.',
  'password.setup.subject': 'Your Deskbook account is ready',
  'password.setup.lead': 'an account was created for you on Deskbook, where you can find and book a desk.',
  'password.setup.action': 'Set your password',
  'password.setup.after': 'Then sign in with {email}.',
  'release.subject': 'Desk {desk} released: nobody checked in',
  'release.body':
    'nobody checked in to your reservation of desk {desk} in {room}, starting {started} ({timeZone}), so the desk was released at {released} for others to book. The reservation now ends then.',
  'release.link': 'Your reservations',
  'calendar.name': 'Deskbook reservations',
  'calendar.summary': 'Desk {desk}',
  'calendar.description': 'Desk reservation: {location}',
  'invitation.one': '{summary} on {date}',
  'invitation.many': '{summary}, {count, plural, one {# date} other {# dates}} from {date}',
  'invitation.subject.booked': 'Booked: {what}',
  'invitation.subject.changed': 'Changed: {what}',
  'invitation.subject.cancelled': 'Cancelled: {what}',
  'invitation.intro.booked': 'Your desk reservations:',
  'invitation.intro.changed': 'Your desk reservations now stand as follows:',
  'invitation.intro.cancelled': 'These desk reservations were cancelled:',
  'invitation.outro': 'Your calendar app shows the times in your own time zone. Turn these mails off on your profile page.',
  'invitation.open': 'open',
  yourReservations: 'Your reservations',
  'list.more': 'and {count} more',
  'report.subject': 'Your report is {status, select, OPEN {open} IN_PROGRESS {in progress} other {resolved}}: {title}',
  'report.lead': 'your report "{title}" is now {status, select, OPEN {open} IN_PROGRESS {in progress} other {resolved}}.',
  'report.note': 'The office team wrote: {note}',
  'report.link': 'Your reports',
  'closure.subject': '{count, plural, one {Reservation cancelled: the office is closed} other {# reservations cancelled: the office is closed}}',
  'closure.lead': 'the office is closed ({reason}), so these reservations of yours were cancelled:',
  'closure.line': 'desk {desk} ({place}), {start} ({timeZone})',
  'onBehalf.subject': '{action, select, booked {Booked for you} changed {Changed for you} other {Cancelled for you}}: desk {desk}',
  'onBehalf.body':
    '{booker} {action, select, booked {booked a desk for you} changed {changed your reservation} other {cancelled your reservation}}: desk {desk} in {room}, {start} to {end} ({timeZone}).',
  'onBehalf.after': '{action, select, cancelled {You need do nothing.} other {The reservation is yours; it is in your list of reservations.}}',
  'approvals.subject': '{count, plural, one {A booking awaits your approval} other {# bookings await your approval}}',
  'approvals.lead': '{count, plural, one {a booking awaits your approval:} other {# bookings await your approval:}}',
  'approvals.line': '{name}: desk {desk} ({room}), {start} ({timeZone})',
  'approvals.link': 'Approve or reject them',
  'outcome.subject': 'Desk {desk}: booking {outcome, select, APPROVED {approved} REJECTED {rejected} other {not approved in time}}',
  'outcome.body':
    'your booking of desk {desk} in {room}, starting {start} ({timeZone}), {outcome, select, APPROVED {was approved; the desk is yours} REJECTED {was rejected, so the reservation was cancelled} other {was not approved before it began, so the reservation was cancelled}}.',
  'outcome.note': 'Note: {note}',
  'push.place': 'Desk {desk} ({room}), {start} ({timeZone}).',
  'push.checkIn.title': 'Check-in is open',
  'push.checkIn.body': 'Desk {desk} ({room}), {start} ({timeZone}). Check in, or the desk is released.',
  'push.released.title': 'Desk released: nobody checked in',
  'push.approval.title': '{outcome, select, APPROVED {Booking approved} REJECTED {Booking rejected} other {Booking request expired}}',
  'push.bookedByOthers.title': '{action, select, booked {A desk was booked for you} changed {Your booking was changed} other {Your booking was cancelled}}',
  'feed.floor': 'Floor {floor}',
  'qr.title': 'QR labels: {room}',
  'qr.scan': 'Scan to check in or book',
  'qr.place': '{location}, {building}, floor {floor}',
  'qr.empty': 'This room has no desks.',
  'qr.someRoom': 'Room',
} as const;

export type MailKey = keyof typeof EN;

const DE: Record<MailKey, string> = {
  hello: 'Hallo {firstName},',
  'password.validity': '{hours, plural, =0 {{minutes, plural, one {# Minute} other {# Minuten}}} one {# Stunde} other {# Stunden}}',
  'password.linkNote': '(der Link gilt einmal, {validity} lang)',
  'password.reset.subject': 'Ihr Deskbook-Passwort zurücksetzen',
  'password.reset.lead': 'jemand (hoffentlich Sie) hat darum gebeten, das Passwort Ihres Deskbook-Kontos zurückzusetzen.',
  'password.reset.action': 'Neues Passwort wählen',
  'password.reset.after': 'Wenn Sie das nicht waren, ignorieren Sie diese Mail: Ihr Passwort bleibt, wie es ist.',
  'password.setup.subject': 'Ihr Deskbook-Konto ist bereit',
  'password.setup.lead': 'für Sie wurde ein Konto bei Deskbook angelegt, wo Sie Arbeitsplätze finden und buchen können.',
  'password.setup.action': 'Passwort festlegen',
  'password.setup.after': 'Melden Sie sich danach mit {email} an.',
  'release.subject': 'Arbeitsplatz {desk} freigegeben: niemand hat eingecheckt',
  'release.body':
    'bei Ihrer Reservierung des Arbeitsplatzes {desk} in {room} ab {started} ({timeZone}) hat niemand eingecheckt, daher wurde der Arbeitsplatz um {released} für andere freigegeben. Die Reservierung endet nun zu diesem Zeitpunkt.',
  'release.link': 'Ihre Reservierungen',
  'calendar.name': 'Deskbook-Reservierungen',
  'calendar.summary': 'Arbeitsplatz {desk}',
  'calendar.description': 'Arbeitsplatzreservierung: {location}',
  'invitation.one': '{summary} am {date}',
  'invitation.many': '{summary}, {count, plural, one {# Termin} other {# Termine}} ab {date}',
  'invitation.subject.booked': 'Gebucht: {what}',
  'invitation.subject.changed': 'Geändert: {what}',
  'invitation.subject.cancelled': 'Storniert: {what}',
  'invitation.intro.booked': 'Ihre Arbeitsplatzreservierungen:',
  'invitation.intro.changed': 'Ihre Arbeitsplatzreservierungen lauten jetzt:',
  'invitation.intro.cancelled': 'Diese Arbeitsplatzreservierungen wurden storniert:',
  'invitation.outro': 'Ihre Kalender-App zeigt die Zeiten in Ihrer eigenen Zeitzone. Auf Ihrer Profilseite können Sie diese Mails abschalten.',
  'invitation.open': 'öffnen',
  yourReservations: 'Ihre Reservierungen',
  'list.more': 'und {count} weitere',
  'report.subject': 'Ihre Meldung ist {status, select, OPEN {offen} IN_PROGRESS {in Bearbeitung} other {erledigt}}: {title}',
  'report.lead': 'Ihre Meldung „{title}“ ist jetzt {status, select, OPEN {offen} IN_PROGRESS {in Bearbeitung} other {erledigt}}.',
  'report.note': 'Das Team vor Ort schreibt: {note}',
  'report.link': 'Ihre Meldungen',
  'closure.subject':
    '{count, plural, one {Reservierung storniert: Der Standort ist geschlossen} other {# Reservierungen storniert: Der Standort ist geschlossen}}',
  'closure.lead': 'der Standort ist geschlossen ({reason}), daher wurden diese Ihrer Reservierungen storniert:',
  'closure.line': 'Arbeitsplatz {desk} ({place}), {start} ({timeZone})',
  'onBehalf.subject': '{action, select, booked {Für Sie reserviert} changed {Für Sie geändert} other {Für Sie storniert}}: Arbeitsplatz {desk}',
  'onBehalf.body':
    '{booker} hat {action, select, booked {für Sie einen Arbeitsplatz reserviert} changed {Ihre Reservierung geändert} other {Ihre Reservierung storniert}}: Arbeitsplatz {desk} in {room}, {start} bis {end} ({timeZone}).',
  'onBehalf.after':
    '{action, select, cancelled {Sie müssen nichts tun.} other {Die Reservierung gehört Ihnen; Sie finden sie in Ihrer Liste der Reservierungen.}}',
  'approvals.subject': '{count, plural, one {Eine Reservierung wartet auf Ihre Genehmigung} other {# Reservierungen warten auf Ihre Genehmigung}}',
  'approvals.lead': '{count, plural, one {eine Reservierung wartet auf Ihre Genehmigung:} other {# Reservierungen warten auf Ihre Genehmigung:}}',
  'approvals.line': '{name}: Arbeitsplatz {desk} ({room}), {start} ({timeZone})',
  'approvals.link': 'Genehmigen oder ablehnen',
  'outcome.subject': 'Arbeitsplatz {desk}: Reservierung {outcome, select, APPROVED {genehmigt} REJECTED {abgelehnt} other {nicht rechtzeitig genehmigt}}',
  'outcome.body':
    'Ihre Reservierung des Arbeitsplatzes {desk} in {room} ab {start} ({timeZone}) {outcome, select, APPROVED {wurde genehmigt; der Arbeitsplatz gehört Ihnen} REJECTED {wurde abgelehnt, daher wurde die Reservierung storniert} other {wurde nicht vor ihrem Beginn genehmigt, daher wurde die Reservierung storniert}}.',
  'outcome.note': 'Anmerkung: {note}',
  'push.place': 'Arbeitsplatz {desk} ({room}), {start} ({timeZone}).',
  'push.checkIn.title': 'Einchecken ist jetzt möglich',
  'push.checkIn.body': 'Arbeitsplatz {desk} ({room}), {start} ({timeZone}). Checken Sie ein, sonst wird der Arbeitsplatz freigegeben.',
  'push.released.title': 'Arbeitsplatz freigegeben: niemand hat eingecheckt',
  'push.approval.title': '{outcome, select, APPROVED {Reservierung genehmigt} REJECTED {Reservierung abgelehnt} other {Reservierungsanfrage abgelaufen}}',
  'push.bookedByOthers.title':
    '{action, select, booked {Für Sie wurde ein Arbeitsplatz reserviert} changed {Ihre Reservierung wurde geändert} other {Ihre Reservierung wurde storniert}}',
  'feed.floor': 'Etage {floor}',
  'qr.title': 'QR-Etiketten: {room}',
  'qr.scan': 'Scannen zum Einchecken oder Reservieren',
  'qr.place': '{location}, {building}, Etage {floor}',
  'qr.empty': 'Dieser Raum hat keine Arbeitsplätze.',
  'qr.someRoom': 'Raum',
};

const FR: Record<MailKey, string> = {
  hello: 'Bonjour {firstName},',
  'password.validity': '{hours, plural, =0 {{minutes, plural, one {# minute} other {# minutes}}} one {# heure} other {# heures}}',
  'password.linkNote': '(le lien fonctionne une fois, pendant {validity})',
  'password.reset.subject': 'Réinitialiser votre mot de passe Deskbook',
  'password.reset.lead': 'quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte Deskbook.',
  'password.reset.action': 'Choisir un nouveau mot de passe',
  'password.reset.after': 'Si vous n’avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.',
  'password.setup.subject': 'Votre compte Deskbook est prêt',
  'password.setup.lead': 'un compte a été créé pour vous sur Deskbook, où vous pouvez trouver et réserver un poste de travail.',
  'password.setup.action': 'Définir votre mot de passe',
  'password.setup.after': 'Connectez-vous ensuite avec {email}.',
  'release.subject': 'Poste {desk} libéré : personne ne s’est présenté',
  'release.body':
    'personne ne s’est présenté pour votre réservation du poste {desk} dans {room}, à partir de {started} ({timeZone}) ; le poste a donc été libéré à {released} pour que d’autres puissent le réserver. La réservation se termine désormais à cette heure-là.',
  'release.link': 'Vos réservations',
  'calendar.name': 'Réservations Deskbook',
  'calendar.summary': 'Poste {desk}',
  'calendar.description': 'Réservation de poste : {location}',
  'invitation.one': '{summary} le {date}',
  'invitation.many': '{summary}, {count, plural, one {# date} other {# dates}} à partir du {date}',
  'invitation.subject.booked': 'Réservé : {what}',
  'invitation.subject.changed': 'Modifié : {what}',
  'invitation.subject.cancelled': 'Annulé : {what}',
  'invitation.intro.booked': 'Vos réservations de poste :',
  'invitation.intro.changed': 'Vos réservations de poste sont désormais les suivantes :',
  'invitation.intro.cancelled': 'Ces réservations de poste ont été annulées :',
  'invitation.outro': 'Votre application d’agenda affiche les heures dans votre propre fuseau horaire. Désactivez ces e-mails sur votre page de profil.',
  'invitation.open': 'ouvrir',
  yourReservations: 'Vos réservations',
  'list.more': 'et {count} de plus',
  'report.subject': 'Votre signalement est {status, select, OPEN {ouvert} IN_PROGRESS {en cours de traitement} other {résolu}} : {title}',
  'report.lead': 'votre signalement « {title} » est maintenant {status, select, OPEN {ouvert} IN_PROGRESS {en cours de traitement} other {résolu}}.',
  'report.note': 'L’équipe du bureau a écrit : {note}',
  'report.link': 'Vos signalements',
  'closure.subject': '{count, plural, one {Réservation annulée : le bureau est fermé} other {# réservations annulées : le bureau est fermé}}',
  'closure.lead': 'le bureau est fermé ({reason}), vos réservations suivantes ont donc été annulées :',
  'closure.line': 'poste {desk} ({place}), {start} ({timeZone})',
  'onBehalf.subject': '{action, select, booked {Réservé pour vous} changed {Modifié pour vous} other {Annulé pour vous}} : poste {desk}',
  'onBehalf.body':
    '{booker} {action, select, booked {a réservé un poste pour vous} changed {a modifié votre réservation} other {a annulé votre réservation}} : poste {desk} dans {room}, du {start} au {end} ({timeZone}).',
  'onBehalf.after': '{action, select, cancelled {Vous n’avez rien à faire.} other {La réservation est à vous ; elle figure dans votre liste de réservations.}}',
  'approvals.subject': '{count, plural, one {Une réservation attend votre approbation} other {# réservations attendent votre approbation}}',
  'approvals.lead': '{count, plural, one {une réservation attend votre approbation :} other {# réservations attendent votre approbation :}}',
  'approvals.line': '{name} : poste {desk} ({room}), {start} ({timeZone})',
  'approvals.link': 'Les approuver ou les refuser',
  'outcome.subject': 'Poste {desk} : réservation {outcome, select, APPROVED {approuvée} REJECTED {refusée} other {non approuvée à temps}}',
  'outcome.body':
    'votre réservation du poste {desk} dans {room}, à partir du {start} ({timeZone}), {outcome, select, APPROVED {a été approuvée ; le poste est à vous} REJECTED {a été refusée, la réservation a donc été annulée} other {n’a pas été approuvée avant son début, la réservation a donc été annulée}}.',
  'outcome.note': 'Remarque : {note}',
  'push.place': 'Poste {desk} ({room}), {start} ({timeZone}).',
  'push.checkIn.title': 'L’enregistrement est ouvert',
  'push.checkIn.body': 'Poste {desk} ({room}), {start} ({timeZone}). Enregistrez votre arrivée, sinon le poste sera libéré.',
  'push.released.title': 'Poste libéré : personne ne s’est présenté',
  'push.approval.title': '{outcome, select, APPROVED {Réservation approuvée} REJECTED {Réservation refusée} other {Demande de réservation expirée}}',
  'push.bookedByOthers.title':
    '{action, select, booked {Un poste a été réservé pour vous} changed {Votre réservation a été modifiée} other {Votre réservation a été annulée}}',
  'feed.floor': 'Étage {floor}',
  'qr.title': 'Étiquettes QR : {room}',
  'qr.scan': 'Scannez pour vous enregistrer ou réserver',
  'qr.place': '{location}, {building}, étage {floor}',
  'qr.empty': 'Cette salle n’a aucun poste.',
  'qr.someRoom': 'Salle',
};

export const MAIL_MESSAGES: Record<Language, Record<MailKey, string>> = { en: EN, de: DE, fr: FR };

/** The floor part of a place as the database writes it ("office · building · Floor 2 · room"). */
const FLOOR = /(^| · )Floor (-?\d+)(?= · |$)/;

/**
 * A place as SQL writes it (the calendar's LOCATION, a closure's list: "Berlin · HQ · Floor 2 ·
 * Atlas") in `language`: its "Floor n" becomes the language's ("Etage 2", "Étage 2"); the rest are
 * names, which stay as they are.
 */
export function placeText(language: Language, place: string): string {
  return place.replace(FLOOR, (_match, before: string, floor: string) => `${before}${mailText(language, 'feed.floor', { floor })}`);
}

/** One mail message in a language, its `{arguments}` filled in (ICU plurals included). */
export function mailText(language: Language, key: MailKey, values: Record<string, string | number> = {}): string {
  const message = MAIL_MESSAGES[language][key];
  return String(new IntlMessageFormat(message, language).format(values));
}
