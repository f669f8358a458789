import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../shared/schemas.js';
import {
  AVAILABILITY_MAX_WINDOW_DAYS,
  AvailabilityQuery,
  FloorPlan,
  FloorPlanAvailability,
  FloorPlanParams,
  IfMatchHeaders,
  ReplaceFloorPlanBody,
} from './floor-plans.schemas.js';
import type { FloorPlansService } from './floor-plans.service.js';

const PLAN = '/api/departments/:departmentId/floor-plan';
const SHAPE_NOTE =
  'Positions are fractions of the department image (x and width of its width, y and height of its height; x, y the top-left corner of the unrotated shape), ' +
  'rotated `rotation` degrees clockwise about the centre; so the plan scales with the image. See docs/behaviour.md#floor-plans.';

export const floorPlansRoutes: FastifyPluginAsyncTypebox<{ floorPlans: FloorPlansService }> = async (app, { floorPlans }) => {
  app.get(
    PLAN,
    {
      schema: {
        tags: ['Floor Plan'],
        summary: "A department's floor plan",
        description:
          `Any signed-in user. Every desk of the department with its position on the plan (null: not placed), the plan image if the department has one, ` +
          `and the plan's ETag (also the ETag header) to send in If-Match when replacing it. ${SHAPE_NOTE} 404 for an unknown department.`,
        params: FloorPlanParams,
        response: { 200: FloorPlan, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const plan = await floorPlans.get(request.params.departmentId);
      return reply.header('etag', plan.etag).header('cache-control', 'private, no-cache').send(plan);
    },
  );

  app.put(
    PLAN,
    {
      config: { role: 'ADMIN' },
      schema: {
        tags: ['Floor Plan'],
        summary: "Replace a department's floor plan",
        description:
          'Admins only (403 for users). The body is the whole plan: desks left out are taken off it. One transaction: all or nothing. ' +
          '`If-Match` is required (428 PRECONDITION_REQUIRED without it): the ETag read with GET, or `*` to overwrite whatever is there; ' +
          'when the plan changed since (another admin saved, a desk was deleted or moved away), 412 PLAN_CHANGED and nothing is written. ' +
          '400 VALIDATION_FAILED naming each offending `positions[i]` member: a desk listed twice, unknown, or of another department; a value out of range; x + width or y + height above 1. ' +
          `${SHAPE_NOTE} Answers the plan as it now is, with its new ETag.`,
        params: FloorPlanParams,
        headers: IfMatchHeaders,
        body: ReplaceFloorPlanBody,
        response: { 200: FloorPlan, ...problemResponses(404, 412, 428) },
      },
    },
    async (request, reply) => {
      const plan = await floorPlans.replace(request.params.departmentId, request.body, request.headers['if-match']);
      return reply.header('etag', plan.etag).send(plan);
    },
  );

  app.get(
    `${PLAN}/availability`,
    {
      // Its cost grows with the window and the reservations in it: limited per user (docs/behaviour.md#costly-operations).
      config: { expensive: true },
      schema: {
        tags: ['Floor Plan'],
        summary: 'Availability of the desks on a floor plan',
        description:
          'Any signed-in user. Every desk placed on the plan with its position and its state for the half-open window [from, to): ' +
          'MINE (the caller has a reservation of it overlapping the window), NOT_BOOKABLE (a FIXED desk, or its room is not available: users cannot book it), ' +
          'FREE (no reservation overlaps), BOOKED (reservations cover the whole window), PARTLY_FREE (otherwise; `longestFree` is the longest free stretch). ' +
          'A reservation ending at `from` or starting at `to` does not count. Answered by one SQL statement. ' +
          `400 when from is not before to, or the window is longer than ${AVAILABILITY_MAX_WINDOW_DAYS} days; 404 for an unknown department.`,
        params: FloorPlanParams,
        querystring: AvailabilityQuery,
        response: { 200: FloorPlanAvailability, ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      const answer = await floorPlans.availability(request.params.departmentId, request.query, request.caller);
      // JSON.stringify, not the serializer compiled from the response schema: for each desk that one
      // picks the branch of the nullable longestFree by validating it with ajv (formats included),
      // about half of its time for ~200 desks. The DTO is built by typed code in the schema's member
      // order, so the bytes are the same (docs/query-plans.md#floor-plan-availability).
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload: unknown) => JSON.stringify(payload))
        .send(answer);
    },
  );
};
