import type { PublishedSettings } from './published.js';
import type { Problem } from './problems.js';

/**
 * Checks and words for images chosen for upload, from the limits the service publishes. Without
 * them (undefined) nothing is checked here and no number is stated: the service checks anyway.
 */

export type ImageLimits = Pick<PublishedSettings, 'imageMaxBytes' | 'imageMaxPixels' | 'imageTypes'>;

const TYPE_NAMES: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/avif': 'AVIF',
  'image/svg+xml': 'SVG',
};

const typeName = (type: string) => TYPE_NAMES[type] ?? (type.split('/')[1] ?? type).toUpperCase();

/** "PNG, JPEG or WebP" */
export function imageTypeNames(types: readonly string[]): string {
  const names = types.map(typeName);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}

/** "5 MB", "512 KB", "1.5 MB" (binary units, as file managers show them). */
export function formatBytes(bytes: number): string {
  const [value, unit] = bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'MB'] : bytes >= 1024 ? [bytes / 1024, 'KB'] : [bytes, 'bytes'];
  return `${Number(value.toFixed(1)).toLocaleString('en-GB')} ${unit}`;
}

const megapixels = (pixels: number) => `${Number((pixels / 1_000_000).toFixed(1)).toLocaleString('en-GB')} megapixels`;

/** Why a chosen file will not do, before it is sent; undefined when it may go. */
export function imageRefusal(file: { type: string; size: number }, limits: ImageLimits | undefined): string | undefined {
  if (!limits) return undefined;
  if (!limits.imageTypes.includes(file.type)) return `Choose a ${imageTypeNames(limits.imageTypes)} image.`;
  if (file.size > limits.imageMaxBytes) return `The image is larger than ${formatBytes(limits.imageMaxBytes)}.`;
  return undefined;
}

/** The hint under an image button: "PNG, JPEG or WebP, up to 5 MB."; undefined without limits. */
export function imageHint(limits: ImageLimits | undefined): string | undefined {
  return limits && `${imageTypeNames(limits.imageTypes)}, up to ${formatBytes(limits.imageMaxBytes)}.`;
}

/** The service's refusal of an upload, in words that name the limits when they are known. */
export function uploadRefusal(problem: Problem, limits: ImageLimits | undefined): string | undefined {
  if (problem.code === 'PAYLOAD_TOO_LARGE') {
    return limits
      ? `The image is too large (at most ${formatBytes(limits.imageMaxBytes)} and ${megapixels(limits.imageMaxPixels)}).`
      : 'The image is too large.';
  }
  if (problem.code === 'UNSUPPORTED_MEDIA_TYPE')
    return limits ? `Use a ${imageTypeNames(limits.imageTypes)} image.` : 'This kind of file is not an image the service accepts.';
  return undefined;
}

/** The `accept` attribute of the file input. */
export const imageAccept = (limits: ImageLimits | undefined) => (limits ? limits.imageTypes.join(',') : 'image/*');
