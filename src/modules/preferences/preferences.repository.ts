import { inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { userPreferences } from '../../db/schema.js';
import { organisationLanguageSql } from '../organisation/organisation.access.js';

/** user_preferences (migration 0033): this module is its one writer (docs/i18n.md#choosing-the-language). */
export class PreferencesRepository {
  constructor(private readonly db: Database) {}

  /** In one statement: the person's chosen language (null when none) and the organisation's default (null when none). */
  async language(userId: string): Promise<{ chosen: string | null; organisation: string | null }> {
    const [row] = await queryRows<{ chosen: string | null; organisation: string | null }>(
      this.db,
      sql`select (select ${userPreferences.language} from ${userPreferences} where ${userPreferences.userId} = ${userId}) as chosen,
            ${organisationLanguageSql} as organisation`,
    );
    return { chosen: row?.chosen ?? null, organisation: row?.organisation ?? null };
  }

  /**
   * In one statement: the chosen languages of several people (those who chose none are absent) and
   * the organisation's default (one row even when nobody chose).
   */
  async languages(userIds: readonly string[]): Promise<{ chosen: Map<string, string>; organisation: string | null }> {
    const rows = await queryRows<{ organisation: string | null; user_id: string | null; language: string | null }>(
      this.db,
      sql`select ${organisationLanguageSql} as organisation, ${userPreferences.userId} as user_id, ${userPreferences.language} as language
          from (select 1) as one left join ${userPreferences} on ${userIds.length === 0 ? sql`false` : inArray(userPreferences.userId, [...userIds])}`,
    );
    const chosen = new Map(rows.flatMap((row) => (row.user_id && row.language ? [[row.user_id, row.language] as const] : [])));
    return { chosen, organisation: rows[0]?.organisation ?? null };
  }

  async setLanguage(userId: string, language: string | null, now: Date): Promise<void> {
    await this.db
      .insert(userPreferences)
      .values({ userId, language, modifiedAt: now })
      .onConflictDoUpdate({ target: userPreferences.userId, set: { language, modifiedAt: now } });
  }
}
