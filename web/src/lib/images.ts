import { dateLocale } from './locale.js';
import type { PublishedSettings } from './published.js';
import type { Problem } from './problems.js';
import { translate } from './translate.js';

/**
 * Checks and words for images chosen for upload, from the limits the service publishes. Without
 * them (undefined) nothing is checked here and no number is stated: the service checks anyway.
 * The words are translated when asked for (namespace `labels`, docs/i18n.md).
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

/** "PNG, JPEG or WebP" (the language's "or" and commas). */
export function imageTypeNames(types: readonly string[]): string {
  return new Intl.ListFormat(dateLocale(), { type: 'disjunction' }).format(types.map(typeName));
}

/** A number with at most one decimal, written the language's way ("1.5", "1,5"). */
const oneDecimal = (value: number) => new Intl.NumberFormat(dateLocale(), { maximumFractionDigits: 1 }).format(Number(value.toFixed(1)));

/** "5 MB", "512 KB", "1.5 MB" (binary units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return translate('labels:image.megabytes', { value: oneDecimal(bytes / (1024 * 1024)) });
  if (bytes >= 1024) return translate('labels:image.kilobytes', { value: oneDecimal(bytes / 1024) });
  return translate('labels:image.bytes', { count: bytes });
}

const megapixels = (pixels: number) => translate('labels:image.megapixels', { count: Number((pixels / 1_000_000).toFixed(1)) });

/** Why a chosen file will not do, before it is sent; undefined when it may go. */
export function imageRefusal(file: { type: string; size: number }, limits: ImageLimits | undefined): string | undefined {
  if (!limits) return undefined;
  if (!limits.imageTypes.includes(file.type)) return translate('labels:image.chooseType', { types: imageTypeNames(limits.imageTypes) });
  if (file.size > limits.imageMaxBytes) return translate('labels:image.larger', { size: formatBytes(limits.imageMaxBytes) });
  return undefined;
}

/** The hint under an image button: "PNG, JPEG or WebP, up to 5 MB."; undefined without limits. */
export function imageHint(limits: ImageLimits | undefined): string | undefined {
  return limits && translate('labels:image.hint', { types: imageTypeNames(limits.imageTypes), size: formatBytes(limits.imageMaxBytes) });
}

/** The service's refusal of an upload, in words that name the limits when they are known. */
export function uploadRefusal(problem: Problem, limits: ImageLimits | undefined): string | undefined {
  if (problem.code === 'PAYLOAD_TOO_LARGE') {
    return limits
      ? translate('labels:image.tooLargeLimits', { size: formatBytes(limits.imageMaxBytes), pixels: megapixels(limits.imageMaxPixels) })
      : translate('labels:image.tooLarge');
  }
  if (problem.code === 'UNSUPPORTED_MEDIA_TYPE')
    return limits ? translate('labels:image.useType', { types: imageTypeNames(limits.imageTypes) }) : translate('labels:image.notAccepted');
  return undefined;
}

/** The `accept` attribute of the file input. */
export const imageAccept = (limits: ImageLimits | undefined) => (limits ? limits.imageTypes.join(',') : 'image/*');
