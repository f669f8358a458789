import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, problemResponses } from '../../shared/schemas.js';
import {
  AddTeamMembersBody,
  CreateTeamBody,
  MEMBERS_PER_REQUEST,
  MyTeams,
  SetTeamMemberBody,
  Team,
  TEAMS_MAX,
  TeamListQuery,
  TeamMember,
  TeamMemberListQuery,
  TeamMemberPage,
  TeamMemberParams,
  TeamPage,
  TeamParams,
  UpdateTeamBody,
} from './teams.schemas.js';
import type { TeamsService } from './teams.service.js';

const TAGS = ['Team'];
const GROUPS =
  'ldapGroup (a DN) and oidcGroup (a value of the OIDC_GROUPS_CLAIM claim) fill the team at each directory or single sign-on sign-in; ' +
  'name, ldapGroup and oidcGroup are unique among teams (409 TEAM_NAME_TAKEN, TEAM_GROUP_TAKEN).';

/** Teams (docs/policies.md#teams). */
export const teamsRoutes: FastifyPluginAsyncTypebox<{ teams: TeamsService }> = async (app, { teams }) => {
  app.get(
    '/api/teams',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: 'List teams',
        description: 'Admins only. Paged; default order name (ignoring case), id. `search` matches part of the name, any case.',
        querystring: TeamListQuery,
        response: { 200: TeamPage, ...problemResponses(403) },
      },
    },
    async (request) => teams.list(request.query),
  );

  app.post(
    '/api/teams',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: 'Create a team',
        description: `Admins only. ${GROUPS} At most ${TEAMS_MAX} teams (409 TOO_MANY_TEAMS).`,
        body: CreateTeamBody,
        response: { 200: Team, ...problemResponses(403, 409) },
      },
    },
    async (request) => teams.create(request.body),
  );

  app.get(
    '/api/teams/:teamId',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a team',
        description: 'Admins see any team; others only a team they are in (another answers 404).',
        params: TeamParams,
        response: { 200: Team, ...problemResponses(404) },
      },
    },
    async (request) => teams.get(request.caller, request.params.teamId),
  );

  app.put(
    '/api/teams/:teamId',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: 'Change a team',
        description: `Admins only. Members left out keep their value; null clears a group. ${GROUPS}`,
        params: TeamParams,
        body: UpdateTeamBody,
        response: { 200: Team, ...problemResponses(403, 404, 409) },
      },
    },
    async (request) => teams.update(request.params.teamId, request.body),
  );

  app.delete(
    '/api/teams/:teamId',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: 'Remove a team',
        description: 'Admins only. Its memberships go with it.',
        params: TeamParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await teams.delete(request.params.teamId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/teams/:teamId/members',
    {
      schema: {
        tags: TAGS,
        summary: "List a team's members",
        description:
          "Admins and the team's managers (a plain member: 403; someone outside the team: 404). Paged; default order managers first, then lastName, firstName.",
        params: TeamParams,
        querystring: TeamMemberListQuery,
        response: { 200: TeamMemberPage, ...problemResponses(403, 404) },
      },
    },
    async (request) => teams.members(request.caller, request.params.teamId, request.query),
  );

  app.post(
    '/api/teams/:teamId/members',
    {
      schema: {
        tags: TAGS,
        summary: 'Add people to a team',
        description:
          `Admins, with any role; the team's managers add plain members only (role MANAGER: 403). 1–${MEMBERS_PER_REQUEST} people a request; an unknown user is 400 naming its position. ` +
          'Someone already in the team stays (an admin may give a role); the membership becomes ADMIN-made, which a sign-in never removes.',
        params: TeamParams,
        body: AddTeamMembersBody,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await teams.addMembers(request.caller, request.params.teamId, request.body);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/teams/:teamId/members/:userId',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: TAGS,
        summary: "Set a member's role",
        description: 'Admins only. The membership becomes ADMIN-made (a sign-in no longer removes it).',
        params: TeamMemberParams,
        body: SetTeamMemberBody,
        response: { 200: TeamMember, ...problemResponses(403, 404) },
      },
    },
    async (request) => teams.setRole(request.params.teamId, request.params.userId, request.body.role),
  );

  app.delete(
    '/api/teams/:teamId/members/:userId',
    {
      schema: {
        tags: TAGS,
        summary: 'Remove someone from a team',
        description:
          "Admins remove anyone; the team's managers remove plain members only (403 for a manager). A member from the directory or single sign-on joins again at their next sign-in while still in the group.",
        params: TeamMemberParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await teams.removeMember(request.caller, request.params.teamId, request.params.userId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/self/teams',
    {
      schema: {
        tags: ['Self'],
        summary: "The caller's teams",
        description: 'Every team the caller is in, with their role and how they came to be in it; ordered by name.',
        response: { 200: MyTeams, ...problemResponses() },
      },
    },
    async (request) => teams.myTeams(request.caller),
  );
};
