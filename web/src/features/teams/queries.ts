import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';

/** Teams (docs/policies.md#teams): the admins' list and members, and the caller's own teams. */

export const useTeams = (page: number, search: string) =>
  $api.useQuery('get', '/api/teams', { params: { query: { page, size: 20, ...(search ? { search } : {}) } } }, { placeholderData: keepPreviousData });

export const useTeamMembers = (teamId: string, page: number) =>
  $api.useQuery('get', '/api/teams/{teamId}/members', { params: { path: { teamId }, query: { page, size: 20 } } }, { placeholderData: keepPreviousData });

export const useMyTeams = () => $api.useQuery('get', '/api/self/teams');

export const useCreateTeam = () => $api.useMutation('post', '/api/teams', { meta: { invalidates: STALE_AFTER.teams } });
export const useUpdateTeam = () => $api.useMutation('put', '/api/teams/{teamId}', { meta: { invalidates: STALE_AFTER.teams } });
export const useDeleteTeam = () => $api.useMutation('delete', '/api/teams/{teamId}', { meta: { invalidates: STALE_AFTER.teams } });
export const useAddMembers = () => $api.useMutation('post', '/api/teams/{teamId}/members', { meta: { invalidates: STALE_AFTER.teams } });
export const useSetMemberRole = () => $api.useMutation('put', '/api/teams/{teamId}/members/{userId}', { meta: { invalidates: STALE_AFTER.teams } });
export const useRemoveMember = () => $api.useMutation('delete', '/api/teams/{teamId}/members/{userId}', { meta: { invalidates: STALE_AFTER.teams } });
