import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { expect } from 'vitest';

/** Real images built by sharp, and multipart bodies built by hand, for the image upload tests (avatars, department images). */

export type Format = 'png' | 'jpeg' | 'webp';
export type Mode = 'raw' | 'multipart';
export type Rgb = [number, number, number];

export const FORMATS: Format[] = ['png', 'jpeg', 'webp'];
export const MODES: Mode[] = ['raw', 'multipart'];
export const MIME: Record<Format, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
export const SCRIPT = '<script>alert(1)</script>';
export const SVG = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="red"/>${SCRIPT}</svg>`;

/** A solid-colour image of the given format and size. */
export async function solidImage(format: Format, width = 800, height = 600, color: Rgb = [200, 30, 40]): Promise<Buffer> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: color[0], g: color[1], b: color[2] } } });
  return base.toFormat(format).toBuffer();
}

/** A PNG of random pixels: it barely compresses (width × height × 3 bytes, roughly). */
export async function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Inserts a PNG chunk right after IHDR (before the image data). */
export function withPngChunk(png: Buffer, type: string, data: Buffer): Buffer {
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  const afterHeader = 8 + 4 + 4 + png.readUInt32BE(8) + 4;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([png.subarray(0, afterHeader), length, typeAndData, crc, png.subarray(afterHeader)]);
}

/** A multipart/form-data body built by hand. */
export function multipartBody(parts: { name: string; filename?: string; contentType?: string; data: Buffer | string }[]): {
  payload: Buffer;
  contentType: string;
} {
  const boundary = `----DeskbookBoundary${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
    head += '\r\n';
    chunks.push(Buffer.from(head, 'latin1'), typeof part.data === 'string' ? Buffer.from(part.data) : part.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The mean colour of an image. */
export async function meanColour(bytes: Buffer): Promise<Rgb> {
  const { channels } = await sharp(bytes).stats();
  return [channels[0]!.mean, channels[1]!.mean, channels[2]!.mean];
}

export function expectColourNear(actual: Rgb, expected: Rgb, tolerance = 8): void {
  for (let index = 0; index < 3; index += 1) expect(Math.abs(actual[index]! - expected[index]!)).toBeLessThanOrEqual(tolerance);
}
