import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the test SMTP server received it: the envelope and the parsed RFC 822 text. */
export interface ReceivedMail {
  /** Position in arrival order (0 for the first mail this server received). */
  seq: number;
  /** MAIL FROM of the SMTP envelope ('' for the null sender). */
  envelopeFrom: string;
  /** RCPT TO addresses of the SMTP envelope. */
  envelopeTo: string[];
  /** Header fields by lower-case name (first occurrence), unfolded and with encoded words decoded. */
  headers: Record<string, string>;
  from: string;
  to: string;
  subject: string;
  /** The text/plain part, decoded, with LF line ends. */
  text: string;
  /** The text/html part, decoded, when there is one. */
  html?: string;
  /** The text/calendar part (an invitation), decoded, and the method its Content-Type names. */
  calendar?: { method: string; content: string };
  raw: string;
}

export interface TestSmtp {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Every mail received so far, in arrival order. */
  mails: ReceivedMail[];
  /** The first mail (already received or still to come) that matches; rejects after timeoutMs. */
  waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

interface Entity {
  headers: Record<string, string>;
  body: string;
}

/** Splits a MIME entity into its header fields (unfolded, lower-case names, first occurrence kept) and its body. */
function splitEntity(raw: string): Entity {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** RFC 2047 encoded words (=?charset?B|Q?…?=), as nodemailer writes non-ASCII header text. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_word, charset: string, encoding: string, encoded: string) => {
      const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(encoded, 'base64') : qpBytes(encoded.replace(/_/g, ' '));
      return bytes.toString(charset.toLowerCase().replace(/\*.*$/, '') === 'utf-8' ? 'utf8' : 'latin1');
    });
}

/** Quoted-printable to bytes: soft line breaks (`=` at a line end) vanish, `=XX` is one byte. */
function qpBytes(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const char = joined[i]!;
    const hex = joined.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** Content-Type (or similar) value → lower-case type and its parameters. */
function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [type = 'text/plain', ...rest] = (value ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    params[part.slice(0, eq).trim().toLowerCase()] = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeBody(entity: Entity): string {
  const encoding = (entity.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const charset = (parseContentType(entity.headers['content-type']).params.charset ?? 'utf-8').toLowerCase();
  const bytes =
    encoding === 'quoted-printable'
      ? qpBytes(entity.body)
      : encoding === 'base64'
        ? Buffer.from(entity.body.replace(/\s+/g, ''), 'base64')
        : Buffer.from(entity.body, 'utf8');
  return bytes.toString(charset === 'utf-8' || charset === 'utf8' || charset === 'us-ascii' ? 'utf8' : 'latin1').replace(/\r\n/g, '\n');
}

/** The first text/plain and text/html leaves of a (possibly multipart) entity. */
type Parts = { text?: string; html?: string; calendar?: { method: string; content: string } };

function textParts(entity: Entity, found: Parts = {}): Parts {
  const { type, params } = parseContentType(entity.headers['content-type']);
  if (type.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const sections = entity.body.split(new RegExp(`(?:^|\\r?\\n)${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // sections[0] is the preamble; a section starting with "--" is the close delimiter (and epilogue).
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      textParts(splitEntity(section.replace(/^[ \t]*\r?\n/, '')), found);
    }
    return found;
  }
  if (type === 'text/plain' && found.text === undefined) found.text = decodeBody(entity);
  else if (type === 'text/html' && found.html === undefined) found.html = decodeBody(entity);
  else if (type === 'text/calendar' && found.calendar === undefined)
    found.calendar = { method: (params.method ?? '').toUpperCase(), content: decodeBody(entity) };
  return found;
}

export function parseMail(raw: string, seq = 0, envelope: { from: string; to: string[] } = { from: '', to: [] }): ReceivedMail {
  const top = splitEntity(raw);
  const parts = textParts(top);
  const mail: ReceivedMail = {
    seq,
    envelopeFrom: envelope.from,
    envelopeTo: envelope.to,
    headers: top.headers,
    from: top.headers.from ?? '',
    to: top.headers.to ?? '',
    subject: top.headers.subject ?? '',
    text: parts.text ?? '',
    raw,
  };
  if (parts.html !== undefined) mail.html = parts.html;
  if (parts.calendar !== undefined) mail.calendar = parts.calendar;
  return mail;
}

/** A real SMTP server on a free 127.0.0.1 port, plain (no STARTTLS), no authentication needed. */
export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        const envelope = {
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((address) => address.address),
        };
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), mails.length, envelope));
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  const waitForMail: TestSmtp['waitForMail'] = (predicate, timeoutMs = 5000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const mail = mails.find(predicate);
        if (!mail) return false;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(mail);
        return true;
      };
      const wake = () => void check();
      const timer = setTimeout(() => {
        waiters.delete(wake);
        const seen = mails.map((mail) => `#${mail.seq} to ${mail.to}: ${mail.subject}`).join('; ') || 'none';
        reject(new Error(`no matching mail within ${timeoutMs} ms (received: ${seen})`));
      }, timeoutMs);
      waiters.add(wake);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitForMail,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
