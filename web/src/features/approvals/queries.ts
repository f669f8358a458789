import { keepPreviousData } from '@tanstack/react-query';
import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import type { paths } from '../../api/schema.js';

/** Approvals (docs/policies.md#approvals): the approver's inbox, decisions, my pending requests, requirements. */

const PAGE_SIZE = 20;

export type Approval = paths['/api/approvals']['get']['responses'][200]['content']['application/json']['content'][number];
export type Requirement = paths['/api/approval-requirements']['get']['responses'][200]['content']['application/json']['content'][number];
export type RequirementInput = NonNullable<paths['/api/approval-requirements']['post']['requestBody']>['content']['application/json'];

/** The requests the caller may decide, a page at a time, in start order. */
export const useApprovalInbox = (page: number) =>
  $api.useQuery('get', '/api/approvals', { params: { query: { status: 'PENDING', page, size: PAGE_SIZE } } }, { placeholderData: keepPreviousData });

/** How many requests the caller may decide wait now (the navigation's badge); read again every two minutes. */
export const usePendingApprovalCount = () =>
  $api.useQuery(
    'get',
    '/api/approvals',
    { params: { query: { status: 'PENDING', size: 1 } } },
    { select: (page) => page.totalElements, refetchInterval: 120_000, staleTime: 60_000 },
  );

export const useApprove = () => $api.useMutation('post', '/api/approvals/{id}/approve', { meta: { invalidates: STALE_AFTER.approvals } });
export const useReject = () => $api.useMutation('post', '/api/approvals/{id}/reject', { meta: { invalidates: STALE_AFTER.approvals } });

/** The ids of my reservations awaiting approval (My reservations marks them). */
export const useMyPendingApprovals = () =>
  $api.useQuery(
    'get',
    '/api/self/approvals',
    { params: { query: { status: 'PENDING', size: 1000 } } },
    { select: (page) => new Set(page.content.map((approval) => approval.reservationId)) },
  );

/**
 * Whether a reservation just booked awaits approval (the booking's confirmation says so): read from
 * my pending requests, not from GET /api/reservation/{id}/approval, which answers 404 for the usual
 * booking that needed none. A failed read says nothing rather than hiding the booking's success.
 */
export async function awaitsApproval(reservationId: string): Promise<boolean> {
  try {
    const page = await call(api.GET('/api/self/approvals', { params: { query: { status: 'PENDING', size: 1000 } } }));
    return page.content.some((approval) => approval.reservationId === reservationId);
  } catch {
    return false;
  }
}

export const useRequirements = (page: number) =>
  $api.useQuery('get', '/api/approval-requirements', { params: { query: { page, size: PAGE_SIZE } } }, { placeholderData: keepPreviousData });

export const useCreateRequirement = (onSuccess: () => void) =>
  $api.useMutation('post', '/api/approval-requirements', { meta: { invalidates: STALE_AFTER.approvalRequirements }, onSuccess });

/** Deletes a requirement (for DeleteDialog, which invalidates STALE_AFTER.approvalRequirements). */
export const deleteRequirement = (id: string) => call(api.DELETE('/api/approval-requirements/{id}', { params: { path: { id } } }));
