import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { serverSettings } from '../../db/schema.js';

const KEY = 'token_signing_secret';

/**
 * The configured JWT_SECRET, or else one generated at first start and kept in the database:
 * every server process (and every restart) signs and checks tokens with the same secret.
 */
export async function resolveSigningSecret(db: Database, configured: string | undefined): Promise<string> {
  if (configured !== undefined) return configured;
  await db
    .insert(serverSettings)
    .values({ key: KEY, value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSettings).where(eq(serverSettings.key, KEY));
  return row!.value;
}
