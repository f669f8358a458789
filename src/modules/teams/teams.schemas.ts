import { Type, type Static } from '@sinclair/typebox';
import { Page, pageQueryProperties } from '../../shared/paging.js';
import { Nullable, StringEnum, Timestamp, Uuid } from '../../shared/schemas.js';

/** Bounds of docs/policies.md#teams (the table's checks say the same). */
export const TEAM_NAME_MAX = 100;
export const TEAM_DESCRIPTION_MAX = 1000;
export const TEAM_LDAP_GROUP_MAX = 1000;
export const TEAM_OIDC_GROUP_MAX = 200;
/** Most teams the service keeps: bounds the directory search at sign-in and every list of a person's teams. */
export const TEAMS_MAX = 500;
/** Most people one request adds to a team. */
export const MEMBERS_PER_REQUEST = 100;

export const TEAM_ROLES = ['MEMBER', 'MANAGER'] as const;
export const TEAM_MEMBER_SOURCES = ['ADMIN', 'LDAP', 'OIDC'] as const;

export const TeamRole = StringEnum(TEAM_ROLES, { description: 'MANAGER: a member who manages the team (docs/policies.md#teams).' });
export const TeamMemberSource = StringEnum(TEAM_MEMBER_SOURCES, {
  description:
    'ADMIN: added by an admin or a team manager. LDAP, OIDC: from the directory group or the single sign-on groups claim, kept in step at each sign-in.',
});

const TeamName = Type.String({
  minLength: 1,
  maxLength: TEAM_NAME_MAX,
  pattern: '\\S',
  description: `Unique, ignoring case (1–${TEAM_NAME_MAX} characters, not blank).`,
});
const Description = Type.String({ maxLength: TEAM_DESCRIPTION_MAX, description: `Free text (0–${TEAM_DESCRIPTION_MAX} characters).` });
const LdapGroup = Type.String({
  minLength: 1,
  maxLength: TEAM_LDAP_GROUP_MAX,
  pattern: '^[^=,]+=[^,]',
  description: "DN of a directory groupOfNames whose members are the team's members (LDAP sign-in); unique among teams, ignoring case.",
});
const OidcGroup = Type.String({
  minLength: 1,
  maxLength: TEAM_OIDC_GROUP_MAX,
  pattern: '\\S',
  description: "A value of the single sign-on groups claim (OIDC_GROUPS_CLAIM) whose holders are the team's members; unique among teams.",
});

export const Team = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    description: Type.String(),
    ldapGroup: Nullable(Type.String()),
    oidcGroup: Nullable(Type.String()),
    memberCount: Type.Integer({ minimum: 0 }),
    managerCount: Type.Integer({ minimum: 0 }),
    createdAt: Timestamp(),
    modifiedAt: Timestamp(),
  },
  { title: 'Team' },
);
export type TeamDto = Static<typeof Team>;

export const CreateTeamBody = Type.Object(
  {
    name: TeamName,
    description: Type.Optional(Description),
    ldapGroup: Type.Optional(Nullable(LdapGroup)),
    oidcGroup: Type.Optional(Nullable(OidcGroup)),
  },
  { additionalProperties: false },
);
export type CreateTeamBody = Static<typeof CreateTeamBody>;

export const UpdateTeamBody = Type.Partial(CreateTeamBody, { additionalProperties: false });
export type UpdateTeamBody = Static<typeof UpdateTeamBody>;

export const TeamListQuery = Type.Object({
  ...pageQueryProperties,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the name, any case.' })),
});
export type TeamListQuery = Static<typeof TeamListQuery>;

export const TeamPage = Page(Team, 'PageOfTeam');

export const TeamParams = Type.Object({ teamId: Uuid() });
export const TeamMemberParams = Type.Object({ teamId: Uuid(), userId: Uuid() });

export const TeamMember = Type.Object(
  {
    userId: Uuid(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    role: TeamRole,
    source: TeamMemberSource,
    createdAt: Timestamp(),
  },
  { title: 'TeamMember' },
);
export type TeamMemberDto = Static<typeof TeamMember>;

export const TeamMemberListQuery = Type.Object({
  ...pageQueryProperties,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the first name, last name or e-mail, any case.' })),
});
export type TeamMemberListQuery = Static<typeof TeamMemberListQuery>;

export const TeamMemberPage = Page(TeamMember, 'PageOfTeamMember');

export const AddTeamMembersBody = Type.Object(
  {
    userIds: Type.Array(Uuid(), { minItems: 1, maxItems: MEMBERS_PER_REQUEST, uniqueItems: true, description: `1–${MEMBERS_PER_REQUEST} people.` }),
    role: Type.Optional({ ...TeamRole, description: 'Default MEMBER; MANAGER is for admins only (403).' }),
  },
  { additionalProperties: false },
);
export type AddTeamMembersBody = Static<typeof AddTeamMembersBody>;

export const SetTeamMemberBody = Type.Object({ role: TeamRole }, { additionalProperties: false });
export type SetTeamMemberBody = Static<typeof SetTeamMemberBody>;

export const MyTeam = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    description: Type.String(),
    role: TeamRole,
    source: TeamMemberSource,
  },
  { title: 'MyTeam' },
);
export type MyTeamDto = Static<typeof MyTeam>;
export const MyTeams = Type.Array(MyTeam, { maxItems: TEAMS_MAX });
