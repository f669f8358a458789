import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { userPreferences } from '../../db/schema.js';
import { organisationLanguageSql } from '../organisation/organisation.access.js';

/** user_preferences (migration 0033): this module is its one writer (docs/i18n.md#choosing-the-language). */
export class PreferencesRepository {
  constructor(private readonly db: Database) {}

  /** In one statement: the person's chosen language (null when none) and the organisation's default (null when none). */
  async language(userId: string): Promise<{ chosen: string | null; organisation: string | null }> {
    const [row] = await this.db
      .select({
        chosen: sql<string | null>`(select ${userPreferences.language} from ${userPreferences} where ${userPreferences.userId} = ${userId})`,
        organisation: organisationLanguageSql,
      })
      .from(sql`(select 1) as one`);
    return { chosen: row?.chosen ?? null, organisation: row?.organisation ?? null };
  }

  /** The chosen languages of several people (those who chose none are absent), and the organisation's default. */
  async languages(userIds: readonly string[]): Promise<{ chosen: Map<string, string>; organisation: string | null }> {
    const [rows, [org]] = await Promise.all([
      userIds.length === 0
        ? []
        : this.db
            .select({ userId: userPreferences.userId, language: userPreferences.language })
            .from(userPreferences)
            .where(inArray(userPreferences.userId, [...userIds])),
      this.db.select({ language: organisationLanguageSql }).from(sql`(select 1) as one`),
    ]);
    return { chosen: new Map(rows.flatMap((row) => (row.language ? [[row.userId, row.language] as const] : []))), organisation: org?.language ?? null };
  }

  async setLanguage(userId: string, language: string | null, now: Date): Promise<void> {
    await this.db
      .insert(userPreferences)
      .values({ userId, language, modifiedAt: now })
      .onConflictDoUpdate({ target: userPreferences.userId, set: { language, modifiedAt: now } });
  }
}
