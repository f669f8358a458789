import type { Database } from '../../db/client.js';
import { organisationSettings } from '../../db/schema.js';
import { isLanguage } from '../../shared/languages.js';
import { readPrivacySettings, type PrivacySettings } from './organisation.access.js';

/** The one writer of organisation_settings (docs/people.md#the-organisations-settings). */
export class OrganisationRepository {
  constructor(private readonly db: Database) {}

  read(): Promise<PrivacySettings> {
    return readPrivacySettings(this.db);
  }

  /** Changes the given members of the one row (made if missing), in one statement. */
  async change(changes: Partial<Pick<PrivacySettings, 'nameVisibility' | 'worksCouncilMode' | 'defaultLanguage'>>, now: Date): Promise<PrivacySettings> {
    const set = { ...changes, modifiedAt: now };
    const [row] = await this.db
      .insert(organisationSettings)
      .values({ id: 1, ...set })
      .onConflictDoUpdate({ target: organisationSettings.id, set })
      .returning({
        nameVisibility: organisationSettings.nameVisibility,
        worksCouncilMode: organisationSettings.worksCouncilMode,
        defaultLanguage: organisationSettings.defaultLanguage,
        modifiedAt: organisationSettings.modifiedAt,
      });
    return {
      ...row!,
      nameVisibility: row!.nameVisibility as PrivacySettings['nameVisibility'],
      defaultLanguage: isLanguage(row!.defaultLanguage) ? row!.defaultLanguage : null,
    };
  }
}
