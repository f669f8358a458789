import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { toOrganisationSettingsDto } from './organisation.mappers.js';
import { OrganisationRepository } from './organisation.repository.js';
import type { OrganisationSettingsDto, PatchOrganisationSettingsBody } from './organisation.schemas.js';

/** The organisation's settings (docs/people.md#the-organisations-settings): everyone reads them, admins change them. */
export class OrganisationService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get repository() {
    return new OrganisationRepository(this.db);
  }

  async get(): Promise<OrganisationSettingsDto> {
    return toOrganisationSettingsDto(await this.repository.read());
  }

  async change(body: PatchOrganisationSettingsBody): Promise<OrganisationSettingsDto> {
    const changes: Parameters<OrganisationRepository['change']>[0] = {};
    if (body.nameVisibility !== undefined) changes.nameVisibility = body.nameVisibility;
    if (body.worksCouncilMode !== undefined) changes.worksCouncilMode = body.worksCouncilMode;
    if (body.defaultLanguage !== undefined) changes.defaultLanguage = body.defaultLanguage;
    return toOrganisationSettingsDto(await this.repository.change(changes, this.clock.now()));
  }
}
