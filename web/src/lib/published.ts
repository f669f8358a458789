/**
 * Two shapes the service publishes that web/src/api/schema.d.ts does not describe yet. Once
 * docs/openapi.json has them (`npm run docs && npm run api:types`), take these from the schema instead.
 */

/** Members of the 409 HAS_DEPENDENTS problem: what keeps a department, room or desk from being deleted. */
export interface Dependents {
  rooms: number;
  desks: number;
  equipment: number;
  futureReservations: number;
}

/** GET /api/settings (no sign-in needed): the limits the service enforces, so the UI need not repeat them. */
export interface PublishedSettings {
  imageMaxBytes: number;
  imageMaxPixels: number;
  imageTypes: string[];
  reservationMaxLengthSeconds: number;
  reservationHorizonSeconds: number;
  /** Whether a password an admin sets for someone else must be replaced at their next sign-in (absent: not published). */
  passwordChangeAfterAdminSet?: boolean;
  /** Whether the service sends mail at all (docs/configuration.md#mail); undefined from an older service. */
  mailConfigured?: boolean;
  /** PUBLIC_URL, the base of QR codes and links, and whether it reaches this machine only (docs/configuration.md#public-url). */
  publicUrl?: string;
  publicUrlIsLocal?: boolean;
}
