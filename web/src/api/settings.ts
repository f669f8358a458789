import { useQuery } from '@tanstack/react-query';
import type { PublishedSettings } from '../lib/published.js';

/**
 * The limits the service publishes at GET /api/settings, read once per tab. A service that does
 * not publish them (older, or the request failed) leaves them undefined: the UI then leaves those
 * checks to the service and does not state the numbers.
 */

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** The settings in a response body, or undefined when it does not have their shape. */
export function readSettings(body: unknown): PublishedSettings | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = body as Record<string, unknown>;
  const { imageMaxBytes, imageMaxPixels, imageTypes, reservationMaxLengthSeconds, reservationHorizonSeconds } = value;
  if (![imageMaxBytes, imageMaxPixels, reservationMaxLengthSeconds, reservationHorizonSeconds].every(isCount)) return undefined;
  if (!Array.isArray(imageTypes) || !imageTypes.every((type) => typeof type === 'string')) return undefined;
  const flag = (member: unknown) => (typeof member === 'boolean' ? member : undefined);
  return {
    mailConfigured: flag(value.mailConfigured),
    publicUrl: typeof value.publicUrl === 'string' ? value.publicUrl : undefined,
    publicUrlIsLocal: flag(value.publicUrlIsLocal),
    imageMaxBytes: imageMaxBytes as number,
    imageMaxPixels: imageMaxPixels as number,
    imageTypes: imageTypes as string[],
    reservationMaxLengthSeconds: reservationMaxLengthSeconds as number,
    reservationHorizonSeconds: reservationHorizonSeconds as number,
    ...(typeof value.passwordChangeAfterAdminSet === 'boolean' ? { passwordChangeAfterAdminSet: value.passwordChangeAfterAdminSet } : {}),
  };
}

async function fetchSettings(): Promise<PublishedSettings | null> {
  // Not in schema.d.ts yet (lib/published.ts), so not through the typed client.
  const response = await fetch('/api/settings', { headers: { accept: 'application/json' } });
  if (!response.ok) return null;
  return readSettings(await response.json().catch(() => undefined)) ?? null;
}

export const SETTINGS_KEY = ['get', '/api/settings'] as const;

export function useSettings(): PublishedSettings | undefined {
  const { data } = useQuery({ queryKey: SETTINGS_KEY, queryFn: fetchSettings, staleTime: Infinity, gcTime: Infinity });
  return data ?? undefined;
}
