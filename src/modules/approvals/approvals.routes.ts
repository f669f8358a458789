import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import {
  Approval,
  ApprovalListQuery,
  ApprovalPage,
  DecisionBody,
  Requirement,
  RequirementInput,
  RequirementListQuery,
  RequirementPage,
} from './approvals.schemas.js';
import type { ApprovalsService } from './approvals.service.js';

/** Approvals (docs/policies.md#approvals). */
export const approvalsRoutes: FastifyPluginAsyncTypebox<{ approvals: ApprovalsService }> = async (app, { approvals }) => {
  app.get(
    '/api/approval-requirements',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Approvals'],
        summary: 'List approval requirements',
        description: 'Admins only (403 otherwise). Paged, oldest first.',
        querystring: RequirementListQuery,
        response: { 200: RequirementPage, ...problemResponses(400, 403) },
      },
    },
    async (request) => approvals.requirements(request.query),
  );

  app.post(
    '/api/approval-requirements',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Approvals'],
        summary: 'Add an approval requirement',
        description:
          'Admins only (403 otherwise). From now on a booking of a desk in scope by the people it applies to is PENDING until an admin or a manager of approverTeamId approves it (docs/policies.md#approvals). Existing reservations are not affected. 400 names the field.',
        body: RequirementInput,
        response: { 200: Requirement, ...problemResponses(400, 403) },
      },
    },
    async (request) => approvals.createRequirement(request.caller!, request.body),
  );

  app.delete(
    '/api/approval-requirements/:id',
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Approvals'],
        summary: 'Remove an approval requirement',
        description: 'Admins only (403 otherwise). New bookings no longer need its approval; its pending requests stay, decided by admins. Unknown id: 404.',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await approvals.deleteRequirement(request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/approvals',
    {
      schema: {
        tags: ['Approvals'],
        summary: "The approver's inbox",
        description:
          'The requests the caller may decide: all for an admin, those under requirements of teams the caller manages for a team manager, none for anyone else (an empty page). With status=PENDING: in start order, totalElements is the count the web app shows; otherwise newest request first.',
        querystring: ApprovalListQuery,
        response: { 200: ApprovalPage, ...problemResponses(400) },
      },
    },
    async (request) => approvals.inbox(request.caller!, request.query),
  );

  for (const [action, decision] of [
    ['approve', 'APPROVED'],
    ['reject', 'REJECTED'],
  ] as const) {
    app.post(
      `/api/approvals/:id/${action}`,
      {
        schema: {
          tags: ['Approvals'],
          summary: action === 'approve' ? 'Approve a pending booking' : 'Reject a pending booking (its reservation is cancelled)',
          description:
            'The id is the reservation’s. An admin, or a manager of the approving team (403 for the owner or a manager of another team; 404 for anyone who may not see it). 409 APPROVAL_DECIDED when it was already approved, rejected or expired (of two approvers at once, one wins). The owner is mailed, with the note.',
          params: IdParams,
          body: DecisionBody,
          response: { 200: Approval, ...problemResponses(400, 403, 404, 409) },
        },
      },
      async (request) => approvals.decide(request.caller!, request.params.id, decision, request.body ?? {}),
    );
  }

  app.get(
    '/api/self/approvals',
    {
      schema: {
        tags: ['Approvals'],
        summary: 'My approval requests',
        description: 'The caller’s own requests (status=PENDING: those awaiting a decision, in start order; otherwise newest first).',
        querystring: ApprovalListQuery,
        response: { 200: ApprovalPage, ...problemResponses(400) },
      },
    },
    async (request) => approvals.mine(request.caller!, request.query),
  );

  app.get(
    '/api/reservation/:id/approval',
    {
      schema: {
        tags: ['Approvals'],
        summary: 'The approval of a reservation',
        description:
          'For its owner and those who may decide it. 404 when the reservation needed no approval (or the caller may not see it). The reservation DTO itself never carries the approval.',
        params: IdParams,
        response: { 200: Approval, ...problemResponses(404) },
      },
    },
    async (request) => approvals.get(request.caller!, request.params.id),
  );
};
