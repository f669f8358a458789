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
};

export const MAIL_MESSAGES: Record<Language, Record<MailKey, string>> = { en: EN, de: DE, fr: FR };

/** One mail message in a language, its `{arguments}` filled in (ICU plurals included). */
export function mailText(language: Language, key: MailKey, values: Record<string, string | number> = {}): string {
  const message = MAIL_MESSAGES[language][key];
  return String(new IntlMessageFormat(message, language).format(values));
}
