import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { mailText } from '../../infrastructure/mail/messages.js';
import { escapeHtml } from '../../shared/html.js';
import type { Language } from '../../shared/languages.js';
import { lruGet } from '../../shared/lru.js';

/** What a desk's QR code holds: the web app's desk page (docs/behaviour.md#desk-qr-codes). */
export const deskUrl = (publicUrl: string, deskId: string) => `${publicUrl.replace(/\/+$/, '')}/d/${deskId}`;

function drawSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

function drawPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 512 });
}

/**
 * A desk's code never changes (it encodes PUBLIC_URL/d/{id}), and drawing a PNG costs ~35 ms of
 * CPU: codes are kept in memory, the least recently used dropped past `capacity` entries
 * (docs/behaviour.md#desk-qr-codes). Requests for a code being drawn wait for that one drawing.
 * `draws` counts the drawings, so a test can see that a second request drew nothing.
 */
export class QrCache {
  private readonly entries = new Map<string, Promise<string | Buffer>>();
  draws = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  svg(text: string): Promise<string> {
    return this.get('svg', text) as Promise<string>;
  }

  png(text: string): Promise<Buffer> {
    return this.get('png', text) as Promise<Buffer>;
  }

  private get(format: 'svg' | 'png', text: string): Promise<string | Buffer> {
    const key = `${format} ${text}`;
    return lruGet(this.entries, key, this.capacity, () => {
      this.draws += 1;
      const drawn = format === 'svg' ? drawSvg(text) : drawPng(text);
      drawn.catch(() => this.entries.delete(key));
      return drawn;
    });
  }
}

/** ~1,000 desks' codes in both formats: some 5 MB (a 512 px PNG is ~3 KB, an SVG ~4 KB). */
export const QR_CACHE_ENTRIES = 2000;
export const qrCodes = new QrCache(QR_CACHE_ENTRIES);

/** The ETag of a code: it depends on nothing but the text it encodes and the format. */
export const qrEtag = (format: 'svg' | 'png', text: string) => `"${createHash('sha256').update(`${format} ${text}`).digest('base64url').slice(0, 27)}"`;

export interface LabelDesk {
  id: string;
  name: string;
  roomName: string;
  location: string;
  building: string;
  floor: number;
}

/** Labels per A4 page: 3 columns × 4 rows of 70 × 74 mm. */
export const LABELS_PER_PAGE = 12;

/** Where the label sheet's stylesheet is served (same origin, no sign-in: it is the same for everyone). */
export const LABEL_SHEET_CSS_PATH = '/api/qr-labels.css';

/**
 * The label sheet's styles, served as a stylesheet of its own rather than inline: the web app
 * opens the sheet as a local copy (a blob: page), which inherits the app's Content-Security-Policy
 * (`style-src 'self'`), and that blocks inline styles but allows a same-origin stylesheet
 * (docs/behaviour.md#desk-qr-codes).
 */
export const LABEL_SHEET_CSS = `@page { size: A4; margin: 0; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; color: #000; background: #fff; }
.page { width: 210mm; height: 297mm; padding: 10.5mm 0 0 0; display: grid; grid-template-columns: repeat(3, 70mm); grid-auto-rows: 69mm; justify-content: center; page-break-after: always; break-after: page; overflow: hidden; }
.page:last-child { page-break-after: auto; break-after: auto; }
.label { margin: 0; padding: 4mm; display: flex; flex-direction: column; align-items: center; text-align: center; border: 0.2mm dashed #bbb; overflow: hidden; }
.code svg { width: 42mm; height: 42mm; display: block; }
figcaption { display: flex; flex-direction: column; gap: 0.5mm; font-size: 9pt; }
figcaption strong { font-size: 13pt; }
small { color: #444; }
@media screen { body { background: #eee; } .page { background: #fff; margin: 5mm auto; box-shadow: 0 0 2mm #999; } }
`;

/**
 * A printable A4 sheet of a room's desk labels (name, room, place, QR code), 12 to a page: an HTML
 * page without scripts whose only outside resource is its stylesheet (LABEL_SHEET_CSS_PATH, a
 * root-relative link: a copy opened elsewhere sets its own <base>). Its words are in `language`, the
 * requesting person's (docs/i18n.md#mails-and-the-calendar-feed), which `<html lang>` names.
 */
export async function labelSheet(roomName: string, desks: LabelDesk[], publicUrl: string, language: Language = 'en'): Promise<string> {
  const scan = escapeHtml(mailText(language, 'qr.scan'));
  const labels = await Promise.all(
    desks.map(async (desk) => {
      const url = deskUrl(publicUrl, desk.id);
      return `<figure class="label"><div class="code">${await qrCodes.svg(url)}</div><figcaption><strong>${escapeHtml(desk.name)}</strong><span>${escapeHtml(desk.roomName)}</span><span>${escapeHtml(mailText(language, 'qr.place', { location: desk.location, building: desk.building, floor: String(desk.floor) }))}</span><small>${scan}</small></figcaption></figure>`;
    }),
  );
  const pages: string[] = [];
  for (let i = 0; i < labels.length; i += LABELS_PER_PAGE) pages.push(`<section class="page">${labels.slice(i, i + LABELS_PER_PAGE).join('')}</section>`);
  if (pages.length === 0) pages.push(`<section class="page"><p>${escapeHtml(mailText(language, 'qr.empty'))}</p></section>`);
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(mailText(language, 'qr.title', { room: roomName }))}</title>
<link rel="stylesheet" href="${LABEL_SHEET_CSS_PATH}">
</head>
<body>${pages.join('\n')}</body></html>`;
}
