/**
 * The one HTML escape of the service: mails (src/infrastructure/mail/templates.ts) and the desk
 * QR labels page (modules/attendance) put text into HTML only through it. `&<>"'` become numeric
 * character references, so text is safe between tags and inside quoted attribute values.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
