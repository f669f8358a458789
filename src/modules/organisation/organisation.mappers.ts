import type { PrivacySettings } from './organisation.access.js';
import type { OrganisationSettingsDto } from './organisation.schemas.js';

export const toOrganisationSettingsDto = (settings: PrivacySettings): OrganisationSettingsDto => ({
  nameVisibility: settings.nameVisibility,
  worksCouncilMode: settings.worksCouncilMode,
  defaultLanguage: settings.defaultLanguage,
  modifiedAt: settings.modifiedAt.toISOString(),
});
