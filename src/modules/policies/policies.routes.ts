import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, problemResponses } from '../../shared/schemas.js';
import { Allowance, AllowanceQuery, Area, AreaBody, AreaList, Preview, PreviewBody, Rule, RuleBody, RuleList } from './policies.schemas.js';
import type { PoliciesService } from './policies.service.js';

/** Booking policies (docs/policies.md): areas and rules for admins, the preview, and the caller's allowance. */
export const policiesRoutes: FastifyPluginAsyncTypebox<{ policies: PoliciesService }> = async (app, { policies }) => {
  const admin = { config: { role: 'ADMIN' as const } };

  app.get(
    '/api/admin/policies/areas',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'List the areas',
        description: 'Admins only. Every area (at most 100), by name.',
        response: { 200: AreaList, ...problemResponses(403) },
      },
    },
    async () => policies.listAreas(),
  );

  app.post(
    '/api/admin/policies/areas',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'Create an area',
        description:
          'Admins only. A department, room or set of desks reserved for teams, optionally on some weekdays (docs/policies.md#areas). 400 names the member; 409 CONFLICT for a name in use or more than 100 areas.',
        body: AreaBody,
        response: { 200: Area, ...problemResponses(403, 409) },
      },
    },
    async (request) => policies.createArea(request.body),
  );

  app.put(
    '/api/admin/policies/areas/:id',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'Replace an area',
        description: 'Admins only. As creating, for an existing area.',
        params: IdParams,
        body: AreaBody,
        response: { 200: Area, ...problemResponses(403, 404, 409) },
      },
    },
    async (request) => policies.updateArea(request.params.id, request.body),
  );

  app.delete(
    '/api/admin/policies/areas/:id',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'Remove an area',
        description: 'Admins only. Its rules (scope AREA) go with it.',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await policies.deleteArea(request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/admin/policies/rules',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'List the rules',
        description: 'Admins only. Every rule (at most 200).',
        response: { 200: RuleList, ...problemResponses(403) },
      },
    },
    async () => policies.listRules(),
  );

  app.post(
    '/api/admin/policies/rules',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'Create a rule',
        description:
          'Admins only. A scope × who × limit (docs/policies.md#rules). 400 names the member (`limit.days`, `scope.roomId` …); 409 POLICY_RULE_CONFLICT when another rule sets the same limit for the same scope and who, or a minimum duration would exceed a maximum.',
        body: RuleBody,
        response: { 200: Rule, ...problemResponses(403, 409) },
      },
    },
    async (request) => policies.createRule(request.body),
  );

  app.put(
    '/api/admin/policies/rules/:id',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'Replace a rule',
        description: 'Admins only. As creating, for an existing rule.',
        params: IdParams,
        body: RuleBody,
        response: { 200: Rule, ...problemResponses(403, 404, 409) },
      },
    },
    async (request) => policies.updateRule(request.params.id, request.body),
  );

  app.delete(
    '/api/admin/policies/rules/:id',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'Remove a rule',
        description: 'Admins only.',
        params: IdParams,
        response: { 204: NoContent, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await policies.deleteRule(request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/admin/policies/preview',
    {
      ...admin,
      schema: {
        tags: ['Policies'],
        summary: 'Test a booking against the rules',
        description:
          'Admins only. What the rules in force would say of this booking for this person, without writing anything (docs/policies.md#preview): the rules in force and the refusal, if any. Other reservations in the way are not looked at. At most 62 days.',
        body: PreviewBody,
        response: { 200: Preview, ...problemResponses(403) },
      },
    },
    async (request) => policies.preview(request.body),
  );

  app.get(
    '/api/self/allowance',
    {
      schema: {
        tags: ['Policies'],
        summary: 'What I may still book this week',
        description:
          'The counted limits that bind the caller (bookings and hours per day, week or month; bookings held at once) with what is used in the ISO week asked, and the areas reserved for teams the caller is in none of (docs/policies.md#allowance).',
        querystring: AllowanceQuery,
        response: { 200: Allowance, ...problemResponses() },
      },
    },
    async (request) => policies.allowance(request.caller, request.query),
  );
};
