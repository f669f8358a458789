import type { TeamMemberRow, TeamWithCounts } from './teams.repository.js';
import type { TeamDto, TeamMemberDto } from './teams.schemas.js';

export function toTeamDto(row: TeamWithCounts): TeamDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    ldapGroup: row.ldapGroup,
    oidcGroup: row.oidcGroup,
    memberCount: row.memberCount,
    managerCount: row.managerCount,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
  };
}

export function toTeamMemberDto(row: TeamMemberRow): TeamMemberDto {
  return {
    userId: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    role: row.role,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
  };
}
