import { eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { userPreferences } from '../../db/schema.js';

/** user_preferences (migration 0033): this module is its one writer (docs/i18n.md#choosing-the-language). */
export class PreferencesRepository {
  constructor(private readonly db: Database) {}

  /** The person's chosen language, null when none. */
  async language(userId: string): Promise<string | null> {
    const [row] = await this.db.select({ language: userPreferences.language }).from(userPreferences).where(eq(userPreferences.userId, userId));
    return row?.language ?? null;
  }

  /** The chosen languages of several people (those who chose none are absent). */
  async languages(userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .select({ userId: userPreferences.userId, language: userPreferences.language })
      .from(userPreferences)
      .where(inArray(userPreferences.userId, [...userIds]));
    return new Map(rows.flatMap((row) => (row.language ? [[row.userId, row.language] as const] : [])));
  }

  async setLanguage(userId: string, language: string | null, now: Date): Promise<void> {
    await this.db
      .insert(userPreferences)
      .values({ userId, language, modifiedAt: now })
      .onConflictDoUpdate({ target: userPreferences.userId, set: { language, modifiedAt: now } });
  }
}
