import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** An iTIP message (RFC 5546), sent as a text/calendar alternative with its method (calendar invitations). */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

export interface Mailer {
  /** Answers false when the mail could not be sent (no SMTP configured, or the server refused). */
  send(mail: Mail): Promise<boolean>;
  close(): void;
}

/** nodemailer over SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: Mail): Promise<boolean> {
    try {
      const { calendar, ...rest } = mail;
      await this.transport.sendMail({
        from: this.from,
        ...rest,
        ...(calendar ? { icalEvent: { method: calendar.method, filename: 'invite.ics', content: calendar.content } } : {}),
      });
      return true;
    } catch (error) {
      this.log.error({ err: error, subject: mail.subject }, 'mail could not be sent');
      return false;
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** Without SMTP_URL: says in the log that no mail could be sent (never the link: it holds a secret). */
export class UnconfiguredMailer implements Mailer {
  constructor(private readonly log: FastifyBaseLogger) {}

  async send(mail: Mail): Promise<boolean> {
    this.log.warn({ subject: mail.subject }, 'no mail could be sent: SMTP_URL is not configured');
    return false;
  }

  close(): void {}
}
