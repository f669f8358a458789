import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Metadata, default as SharpModule } from 'sharp';
import { AppError } from '../../shared/errors.js';

/**
 * Image uploads shared by avatars and department images: the type is decided by the bytes (PNG,
 * JPEG, WebP; anything else 415), the pixel count is checked from the header before decoding
 * (413), and every image is re-encoded by sharp, so metadata and anything smuggled after the
 * image data (a polyglot) never come back. Decoding happens outside the V8 heap (libvips), so
 * what the decodes of a process may hold at once is bounded apart: see DecodeQueue.
 */

type Sharp = typeof SharpModule;
let sharpLoaded: Promise<Sharp> | undefined;

/**
 * sharp (libvips) is loaded with the first upload, not at start: loaded, it holds about 23 MB
 * resident that a process serving no upload never needs (docs/benchmarks.md#memory).
 */
function loadSharp(): Promise<Sharp> {
  sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache would keep recent images (up to 50 MB) for reuse; uploads are never
    // decoded twice.
    sharp.cache(false);
    return sharp;
  });
  return sharpLoaded;
}

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';
export const IMAGE_TYPES: ImageType[] = ['image/png', 'image/jpeg', 'image/webp'];

export function detectImageType(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

export interface StoredImage {
  contentType: ImageType;
  data: Buffer;
  etag: string;
}

export interface ImageShape {
  /** Square crop of this side (avatars), or else fit inside maxSide × maxSide. */
  square?: number;
  maxSide?: number;
  /** Accept SVG too (office pictures, which are floor plans): rasterised to PNG at upload (docs/behaviour.md#images). */
  svg?: boolean;
}

export const SVG_TYPE = 'image/svg+xml';

/**
 * Whether the bytes are an SVG document: text whose first element, after an optional byte order
 * mark, XML declaration, comments and doctype, is <svg>.
 */
export function isSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>/]/i.test(head);
}

/** librsvg renders at most this many pixels per CSS pixel of the declared size (sharp's density bound). */
const SVG_MAX_DENSITY = 100_000;

/**
 * An SVG floor plan becomes a PNG, drawn by sharp (librsvg) so that its longer side is `maxSide`
 * (a vector drawing loses nothing by being drawn larger or smaller than its declared size), within
 * `maxPixels`. Nothing of the SVG survives but its pixels: no script, no link, no text. librsvg
 * reads no file and no URL for a document given as bytes (an <image href="file:…"> is left out),
 * and sharp keeps its XML parser's limits; documents declaring entities are refused all the same
 * (entity expansion is the classic XML bomb). Decoding counts in `decodes` like any image.
 */
async function rasteriseSvg(bytes: Buffer, maxPixels: number, maxSide: number, decodes: DecodeQueue): Promise<StoredImage> {
  if (/<!ENTITY/i.test(bytes.toString('utf8'))) {
    throw new AppError('VALIDATION_FAILED', 'SVG documents that declare XML entities are not accepted', {
      errors: [{ field: 'file', message: 'declares XML entities' }],
    });
  }
  const sharp = await loadSharp();
  let declared: Metadata;
  try {
    declared = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The SVG document is damaged or incomplete', { errors: [{ field: 'file', message: 'is not a readable image' }] });
  }
  const { width, height } = declared;
  if (!width || !height)
    throw new AppError('VALIDATION_FAILED', 'The SVG document has no size', { errors: [{ field: 'file', message: 'is not a readable image' }] });
  const scale = Math.min(maxSide / Math.max(width, height), Math.sqrt(maxPixels / (width * height)), SVG_MAX_DENSITY / 72);
  const density = Math.max(72 * scale, 1);
  const drawn = { width: Math.max(1, Math.round((width * density) / 72)), height: Math.max(1, Math.round((height * density) / 72)) };
  return decodes.run(drawn.width * drawn.height * BYTES_PER_ALLOWED_PIXEL, async () => {
    let data: Buffer;
    try {
      data = await sharp(bytes, { density, limitInputPixels: maxPixels, failOn: 'error' })
        .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
        .png({ compressionLevel: 9 })
        .toBuffer();
    } catch {
      throw new AppError('VALIDATION_FAILED', 'The SVG document could not be drawn', { errors: [{ field: 'file', message: 'is not a readable image' }] });
    }
    return { contentType: 'image/png', data, etag: `"${createHash('sha256').update(data).digest('base64url').slice(0, 32)}"` };
  });
}

/** An image may decode to at most this many bytes per pixel of its limit (8-bit RGBA). */
const BYTES_PER_ALLOWED_PIXEL = 4;
const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(0);

/** Bytes per sample of each libvips band format sharp reports as `depth`. */
const SAMPLE_BYTES: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4, complex: 8, double: 8, dpcomplex: 16 };

/**
 * Decodes of uploaded images, process-wide: together they may hold at most `budgetBytes` of
 * decoded pixels (width × height × channels × bytes per sample: what an interlaced PNG, which
 * cannot be decoded in stripes, needs in full). Others wait in line, first come first served; an
 * image larger than the budget is decoded alone. At most `maxWaiting` wait: beyond, 503
 * SERVER_BUSY with Retry-After. Decoded pixels live outside the V8 heap, so this is what keeps an
 * upload burst within a bounded amount of memory (docs/behaviour.md, Images).
 */
export class DecodeQueue {
  private inUse = 0;
  private running = 0;
  private readonly waiting: { cost: number; start: () => void }[] = [];

  constructor(
    private readonly budgetBytes: number,
    private readonly maxWaiting = 16,
  ) {}

  async run<T>(cost: number, work: () => Promise<T>): Promise<T> {
    await this.admit(cost);
    try {
      return await work();
    } finally {
      this.inUse -= cost;
      this.running--;
      this.startWaiting();
    }
  }

  private fits(cost: number): boolean {
    return this.running === 0 || this.inUse + cost <= this.budgetBytes;
  }

  private admit(cost: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(cost)) {
      this.take(cost);
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxWaiting) {
      throw new AppError('SERVER_BUSY', 'Too many images are being processed; retry shortly', { retryAfter: 2 });
    }
    return new Promise((resolve) => this.waiting.push({ cost, start: resolve }));
  }

  private take(cost: number): void {
    this.inUse += cost;
    this.running++;
  }

  private startWaiting(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.cost)) {
      const next = this.waiting.shift()!;
      this.take(next.cost);
      next.start();
    }
  }
}

export async function reencodeImage(bytes: Buffer, maxPixels: number, shape: ImageShape, decodes: DecodeQueue): Promise<StoredImage> {
  const contentType = detectImageType(bytes);
  if (!contentType && shape.svg && shape.maxSide && isSvg(bytes)) return rasteriseSvg(bytes, maxPixels, shape.maxSide, decodes);
  if (!contentType) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      shape.svg
        ? 'Only PNG, JPEG, WebP and SVG images are accepted (decided by the file content)'
        : 'Only PNG, JPEG and WebP images are accepted (decided by the file content)',
    );
  }
  const sharp = await loadSharp();
  let header: Metadata;
  try {
    // The header only: no pixel is decoded yet.
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The image is damaged or incomplete', { errors: [{ field: 'file', message: 'is not a readable image' }] });
  }
  const { width, height } = header;
  if (!width || !height) throw new AppError('VALIDATION_FAILED', 'The image has no size', { errors: [{ field: 'file', message: 'is not a readable image' }] });
  if (width * height > maxPixels) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The image has ${width}×${height} pixels; at most ${maxPixels.toLocaleString('en')} pixels are accepted`);
  }
  // As much as 8-bit RGBA at the pixel limit: deeper samples (16-bit PNG) allow fewer pixels.
  const decodedBytes = width * height * (header.channels ?? 4) * (SAMPLE_BYTES[header.depth ?? ''] ?? 8);
  if (decodedBytes > maxPixels * BYTES_PER_ALLOWED_PIXEL) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The image takes ${megabytes(decodedBytes)} MB decoded (${width}×${height} pixels, ${header.channels} channels of ${header.depth}); at most ${megabytes(maxPixels * BYTES_PER_ALLOWED_PIXEL)} MB are accepted: save it with 8 bits per channel, or smaller`,
    );
  }
  return decodes.run(decodedBytes, () => reencode(bytes, contentType, maxPixels, shape));
}

async function reencode(bytes: Buffer, contentType: ImageType, maxPixels: number, shape: ImageShape): Promise<StoredImage> {
  const sharp = await loadSharp();
  let pipeline = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' }).rotate();
  pipeline = shape.square
    ? pipeline.resize(shape.square, shape.square, { fit: 'cover', position: 'attention' })
    : pipeline.resize(shape.maxSide, shape.maxSide, { fit: 'inside', withoutEnlargement: true });
  let data: Buffer;
  try {
    data = await (
      contentType === 'image/png'
        ? pipeline.png({ compressionLevel: 9 })
        : contentType === 'image/jpeg'
          ? pipeline.jpeg({ quality: 85, mozjpeg: true })
          : pipeline.webp({ quality: 85 })
    ).toBuffer();
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The image could not be decoded', { errors: [{ field: 'file', message: 'is not a readable image' }] });
  }
  return { contentType, data, etag: `"${createHash('sha256').update(data).digest('base64url').slice(0, 32)}"` };
}

/** The uploaded bytes: a multipart `file` field, or a raw image/png|jpeg|webp body. */
export async function readUpload(request: FastifyRequest): Promise<Buffer> {
  if (request.isMultipart()) {
    let file;
    try {
      file = await request.file();
    } catch (error) {
      throw uploadError(error);
    }
    if (!file) throw new AppError('VALIDATION_FAILED', 'The form has no file', { errors: [{ field: 'file', message: 'is required' }] });
    if (file.fieldname !== 'file')
      throw new AppError('VALIDATION_FAILED', 'Send the image in the form field "file"', {
        errors: [{ field: file.fieldname, message: 'is not an accepted field' }],
      });
    try {
      return await file.toBuffer();
    } catch (error) {
      throw uploadError(error);
    }
  }
  if (Buffer.isBuffer(request.body)) return request.body;
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Send the image as multipart/form-data (field "file") or as a raw image/png, image/jpeg or image/webp body (office pictures: image/svg+xml too)',
  );
}

function uploadError(error: unknown): AppError {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT')
    return new AppError('PAYLOAD_TOO_LARGE', 'The image is too large');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError('UNSUPPORTED_MEDIA_TYPE');
  return new AppError('VALIDATION_FAILED', 'The multipart body is malformed');
}

/** The 200 response of an operation answering a stored image (OpenAPI). */
export const IMAGE_RESPONSE = {
  description: 'The image, with ETag (If-None-Match answers 304), Cache-Control and X-Content-Type-Options: nosniff.',
  content: {
    'image/png': { schema: { type: 'string', format: 'binary' } },
    'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    'image/webp': { schema: { type: 'string', format: 'binary' } },
  },
};
/** Said in the description of each image upload operation. */
export const UPLOAD_NOTE =
  'Upload as multipart/form-data (field `file`) or as a raw image/png, image/jpeg or image/webp body. The type is decided by the bytes (PNG bytes declared as WebP are taken as PNG); ' +
  'anything else is 415 (SVG too, except for office pictures). Over IMAGE_MAX_BYTES (default 5 MB) or IMAGE_MAX_PIXELS (default 40 megapixels, checked before decoding): 413. ' +
  "The image is re-encoded (metadata stripped). Decoding waits in line while other uploads fill the process's decoding memory (IMAGE_DECODE_MEMORY); with too many waiting, 503 SERVER_BUSY with Retry-After.";
export const NOT_MODIFIED_RESPONSE = { type: 'null', description: 'Not modified.' } as const;

/** Serves a stored image: right type, no sniffing, ETag with 304, revalidated each time (it needs a token). */
export function sendImage(request: FastifyRequest, reply: FastifyReply, image: { contentType: string; data: Buffer; etag: string }): FastifyReply {
  reply
    .header('etag', image.etag)
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox");
  const ifNoneMatch = request.headers['if-none-match'];
  const matches = ifNoneMatch?.split(',').some((tag) => ['*', image.etag, `W/${image.etag}`].includes(tag.trim()));
  if (matches) return reply.code(304).send();
  return reply.type(image.contentType).send(image.data);
}

/** Body parsers for image uploads, within IMAGE_MAX_BYTES; register inside the image routes' own context. */
export const imageUploads = fp(
  async function imageUploadsPlugin(app: FastifyInstance, options: { maxBytes: number; svg?: boolean }) {
    // Raw SVG bodies only where SVG is accepted (office pictures); elsewhere image/svg+xml stays 415.
    const types = options.svg ? [...IMAGE_TYPES, SVG_TYPE] : IMAGE_TYPES;
    app.addContentTypeParser(types, { parseAs: 'buffer', bodyLimit: options.maxBytes }, (_request, body, done) => done(null, body));
    await app.register(multipart, { limits: { fileSize: options.maxBytes, files: 1, fields: 0, parts: 2 }, throwFileSizeLimit: true });
  },
  { name: 'image-uploads' },
);
