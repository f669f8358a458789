import type { Database } from '../../db/client.js';
import { pgConstraint, pgErrorCode, PG } from '../../db/errors.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, forbidden, invalid, notFound } from '../../shared/errors.js';
import { pageOf, parsePageRequest, type PageOf } from '../../shared/paging.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { TEAM_MEMBER_SORTABLE, TEAM_SORTABLE, TeamsRepository, type TeamValues } from './teams.repository.js';
import { toTeamDto, toTeamMemberDto } from './teams.mappers.js';
import {
  TEAMS_MAX,
  type AddTeamMembersBody,
  type CreateTeamBody,
  type MyTeamDto,
  type TeamDto,
  type TeamListQuery,
  type TeamMemberDto,
  type TeamMemberListQuery,
  type UpdateTeamBody,
} from './teams.schemas.js';

const MEMBERS_FORBIDDEN = 'Only admins and the managers of a team see its members';

/**
 * Teams and their members (docs/policies.md#teams). Admins manage teams; a team's managers see its
 * members and add or remove plain members, but make no managers and remove none.
 */
export class TeamsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get teams() {
    return new TeamsRepository(this.db);
  }

  async list(query: TeamListQuery): Promise<PageOf<TeamDto>> {
    const request = parsePageRequest(query, TEAM_SORTABLE);
    const { rows, total } = await this.teams.page(query.search?.trim() || undefined, request);
    return pageOf(rows.map(toTeamDto), total, request);
  }

  /** Admins see any team; anyone else only a team they are in (another answers 404, as an unknown one does). */
  async get(caller: Caller, teamId: string): Promise<TeamDto> {
    const team = await this.teams.findWithRole(teamId, caller.user.id);
    if (!team || (!isAdmin(caller) && team.callerRole === null)) throw notFound('Team', teamId);
    return toTeamDto(team);
  }

  async create(body: CreateTeamBody): Promise<TeamDto> {
    const values: TeamValues = {
      name: body.name.trim(),
      description: body.description ?? '',
      ldapGroup: body.ldapGroup?.trim() || null,
      oidcGroup: body.oidcGroup ?? null,
    };
    // The count and the insert run under one transaction-scoped advisory lock taken by every creation
    // (docs/policies.md#managing-teams-srcmodulesteams), so concurrent creations, in any process, never pass the cap together.
    const row = await this.unique(() =>
      this.db.transaction(async (tx) => {
        const teams = new TeamsRepository(tx);
        await teams.lockCreation();
        if ((await teams.count()) >= TEAMS_MAX) throw new AppError('TOO_MANY_TEAMS', `The service keeps at most ${TEAMS_MAX} teams`);
        return teams.insert(values, this.clock.now());
      }),
    );
    return toTeamDto({ ...row, memberCount: 0, managerCount: 0 });
  }

  async update(teamId: string, body: UpdateTeamBody): Promise<TeamDto> {
    const values: Partial<TeamValues> = {};
    if (body.name !== undefined) values.name = body.name.trim();
    if (body.description !== undefined) values.description = body.description;
    if (body.ldapGroup !== undefined) values.ldapGroup = body.ldapGroup?.trim() || null;
    if (body.oidcGroup !== undefined) values.oidcGroup = body.oidcGroup;
    const updated = await this.unique(() => this.teams.update(teamId, values, this.clock.now()));
    if (!updated) throw notFound('Team', teamId);
    return toTeamDto((await this.teams.findById(teamId))!);
  }

  async delete(teamId: string): Promise<void> {
    if (!(await this.teams.delete(teamId))) throw notFound('Team', teamId);
  }

  async members(caller: Caller, teamId: string, query: TeamMemberListQuery): Promise<PageOf<TeamMemberDto>> {
    const request = parsePageRequest(query, TEAM_MEMBER_SORTABLE);
    // One statement reads the page and the caller's role; only an empty page asks about the team apart.
    const { rows, total, callerRole } = await this.teams.members(teamId, caller.user.id, query.search?.trim() || undefined, request);
    if (callerRole === undefined) await this.ensureManages(caller, teamId, MEMBERS_FORBIDDEN);
    else if (!isAdmin(caller) && callerRole !== 'MANAGER') {
      if (callerRole === null) throw notFound('Team', teamId);
      throw forbidden(MEMBERS_FORBIDDEN);
    }
    return pageOf(rows.map(toTeamMemberDto), total, request);
  }

  /** Admins add with any role; a manager of the team adds plain members only (403 for MANAGER). */
  async addMembers(caller: Caller, teamId: string, body: AddTeamMembersBody): Promise<void> {
    await this.ensureManages(caller, teamId, 'Only admins and the managers of a team add its members');
    if (!isAdmin(caller) && body.role === 'MANAGER') throw forbidden('Only admins make team managers');
    const known = await this.teams.existingUsers(body.userIds);
    const unknown = body.userIds.findIndex((id) => !known.has(id));
    if (unknown >= 0) throw invalid(`userIds/${unknown}`, 'no such user');
    // A manager adding someone already in the team changes nothing of their role.
    await this.teams.addMembers(teamId, body.userIds, isAdmin(caller) ? body.role : undefined, this.clock.now());
  }

  async setRole(teamId: string, userId: string, role: 'MEMBER' | 'MANAGER'): Promise<TeamMemberDto> {
    if (!(await this.teams.setRole(teamId, userId, role))) throw notFound('Member of team', userId);
    return toTeamMemberDto((await this.teams.memberRow(teamId, userId))!);
  }

  /** Admins remove anyone; a manager of the team removes plain members only. */
  async removeMember(caller: Caller, teamId: string, userId: string): Promise<void> {
    await this.ensureManages(caller, teamId, 'Only admins and the managers of a team remove its members');
    const member = await this.teams.findMember(teamId, userId);
    if (!member) throw notFound('Member of team', userId);
    if (!isAdmin(caller) && member.role === 'MANAGER') throw forbidden('Only admins remove team managers');
    await this.teams.removeMember(teamId, userId);
  }

  async myTeams(caller: Caller): Promise<MyTeamDto[]> {
    return this.teams.teamsOf(caller.user.id);
  }

  /** An unknown team is 404; a caller who is neither admin nor a manager of it is 403 (a member learns nothing new: they know the team). */
  private async ensureManages(caller: Caller, teamId: string, message: string): Promise<void> {
    if (isAdmin(caller)) {
      if (!(await this.teams.findById(teamId))) throw notFound('Team', teamId);
      return;
    }
    const member = await this.teams.findMember(teamId, caller.user.id);
    if (!member) throw notFound('Team', teamId);
    if (member.role !== 'MANAGER') throw forbidden(message);
  }

  /** A unique name or group taken by another team is 409 with its own code. */
  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (pgErrorCode(error) !== PG.UNIQUE_VIOLATION) throw error;
      const constraint = pgConstraint(error);
      if (constraint === 'teams_name_lower_key')
        throw new AppError('TEAM_NAME_TAKEN', 'Another team has this name (ignoring case)', { errors: [{ field: 'name', message: 'is taken' }] });
      const field = constraint === 'teams_ldap_group_lower_key' ? 'ldapGroup' : 'oidcGroup';
      throw new AppError('TEAM_GROUP_TAKEN', `Another team already names this ${field === 'ldapGroup' ? 'directory group' : 'single sign-on group'}`, {
        errors: [{ field, message: 'is taken by another team' }],
      });
    }
  }
}
