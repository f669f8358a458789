import QRCode from 'qrcode';

/** What a desk's QR code holds: the web app's desk page (docs/behaviour.md#desk-qr-codes). */
export const deskUrl = (publicUrl: string, deskId: string) => `${publicUrl.replace(/\/+$/, '')}/d/${deskId}`;

export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

export async function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 512 });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

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

/**
 * A printable A4 sheet of a room's desk labels (name, room, place, QR code), 12 to a page: a
 * self-contained HTML page (no scripts, no external resources).
 */
export async function labelSheet(roomName: string, desks: LabelDesk[], publicUrl: string): Promise<string> {
  const labels = await Promise.all(
    desks.map(async (desk) => {
      const url = deskUrl(publicUrl, desk.id);
      return `<figure class="label"><div class="code">${await qrSvg(url)}</div><figcaption><strong>${escapeHtml(desk.name)}</strong><span>${escapeHtml(desk.roomName)}</span><span>${escapeHtml(`${desk.location}, ${desk.building}, floor ${desk.floor}`)}</span><small>Scan to check in or book</small></figcaption></figure>`;
    }),
  );
  const pages: string[] = [];
  for (let i = 0; i < labels.length; i += LABELS_PER_PAGE) pages.push(`<section class="page">${labels.slice(i, i + LABELS_PER_PAGE).join('')}</section>`);
  if (pages.length === 0) pages.push('<section class="page"><p>This room has no desks.</p></section>');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>QR labels: ${escapeHtml(roomName)}</title>
<style>
@page { size: A4; margin: 0; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, sans-serif; color: #000; background: #fff; }
.page { width: 210mm; height: 297mm; padding: 10.5mm 0 0 0; display: grid; grid-template-columns: repeat(3, 70mm); grid-auto-rows: 69mm; page-break-after: always; break-after: page; }
.page:last-child { page-break-after: auto; break-after: auto; }
.label { margin: 0; padding: 4mm; display: flex; flex-direction: column; align-items: center; text-align: center; border: 0.2mm dashed #bbb; overflow: hidden; }
.code svg { width: 42mm; height: 42mm; display: block; }
figcaption { display: flex; flex-direction: column; gap: 0.5mm; font-size: 9pt; }
figcaption strong { font-size: 13pt; }
small { color: #444; }
@media screen { body { background: #eee; } .page { background: #fff; margin: 5mm auto; box-shadow: 0 0 2mm #999; } }
</style></head>
<body>${pages.join('\n')}</body></html>`;
}
