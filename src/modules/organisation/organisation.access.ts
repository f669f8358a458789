import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { organisationSettings } from '../../db/schema.js';
import { isLanguage, type Language } from '../../shared/languages.js';
import type { NameVisibility } from './organisation.schemas.js';

/** What other modules read of the organisation's settings (docs/people.md#the-organisations-settings). */
export interface PrivacySettings {
  nameVisibility: NameVisibility;
  worksCouncilMode: boolean;
  /** The language of everyone who chose none; null: the server's DEFAULT_LANGUAGE (docs/i18n.md#choosing-the-language). */
  defaultLanguage: Language | null;
  modifiedAt: Date;
}

/** The most private settings: what applies should the row be missing (migration 0031 inserts it). */
export const MOST_PRIVATE: PrivacySettings = { nameVisibility: 'nobody', worksCouncilMode: true, defaultLanguage: null, modifiedAt: new Date(0) };

/** The one row of organisation_settings, by its key. */
export async function readPrivacySettings(db: Database): Promise<PrivacySettings> {
  const [row] = await db
    .select({
      nameVisibility: organisationSettings.nameVisibility,
      worksCouncilMode: organisationSettings.worksCouncilMode,
      defaultLanguage: organisationSettings.defaultLanguage,
      modifiedAt: organisationSettings.modifiedAt,
    })
    .from(organisationSettings)
    .where(eq(organisationSettings.id, 1));
  return row
    ? { ...row, nameVisibility: row.nameVisibility as NameVisibility, defaultLanguage: isLanguage(row.defaultLanguage) ? row.defaultLanguage : null }
    : MOST_PRIVATE;
}

/**
 * SQL for another module's statement to embed, so that one round trip reads what it needs and the
 * settings together: the two privacy settings as columns "nameVisibility" and "worksCouncilMode"
 * (the most private values should the row be missing).
 */
export const privacySettingsColumns: SQL = sql`coalesce((select name_visibility from organisation_settings where id = 1), 'nobody') as "nameVisibility",
  coalesce((select works_council_mode from organisation_settings where id = 1), true) as "worksCouncilMode"`;

/** SQL for another module's statement to embed: whether works-council mode is on (true should the row be missing). */
export const worksCouncilModeSql: SQL = sql`coalesce((select works_council_mode from organisation_settings where id = 1), true)`;

/**
 * SQL for another module's statement to embed: the organisation's default language (null: none set,
 * the server's DEFAULT_LANGUAGE applies; docs/i18n.md#choosing-the-language).
 */
export const organisationLanguageSql: SQL<string | null> = sql<string | null>`(select default_language from organisation_settings where id = 1)`;
