import type { Database } from '../../db/client.js';
import type { ReadRouting } from '../../db/replica.js';
import type { Caller } from '../../identity/caller.js';
import { AppError, notFound, type FieldError } from '../../shared/errors.js';
import { parseInstant } from '../../shared/time.js';
import { isoStrings, toDeskAvailabilityDto, toFloorPlanDto } from './floor-plans.mappers.js';
import { FloorPlansRepository } from './floor-plans.repository.js';
import {
  AVAILABILITY_MAX_WINDOW_DAYS,
  type AvailabilityQuery,
  type FloorPlanAvailabilityDto,
  type FloorPlanDto,
  type ReplaceFloorPlanBody,
} from './floor-plans.schemas.js';

const DAY_MS = 86_400_000;

/** True when the If-Match header names `etag` (or is `*`). */
export function ifMatchAccepts(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/** Floor plans: desk positions on the department image, and availability drawn on them (docs/behaviour.md#floor-plans). */
export class FloorPlansService {
  constructor(
    private readonly db: Database,
    /** Availability only (docs/deployment.md#with-a-read-replica). */
    private readonly reads: ReadRouting,
  ) {}

  async get(departmentId: string): Promise<FloorPlanDto> {
    const plan = await new FloorPlansRepository(this.db).read(departmentId);
    if (!plan) throw notFound('Department', departmentId);
    return toFloorPlanDto(departmentId, plan);
  }

  async replace(departmentId: string, body: ReplaceFloorPlanBody, ifMatch: string | undefined): Promise<FloorPlanDto> {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    body.positions.forEach((position, index) => {
      if (seen.has(position.deskId)) errors.push({ field: `positions.${index}.deskId`, message: `desk ${position.deskId} is listed more than once` });
      seen.add(position.deskId);
      if (position.x + position.width > 1)
        errors.push({ field: `positions.${index}.width`, message: 'x + width must not exceed 1 (the right edge of the image)' });
      if (position.y + position.height > 1)
        errors.push({ field: `positions.${index}.height`, message: 'y + height must not exceed 1 (the bottom edge of the image)' });
    });
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', errors.map((error) => `${error.field}: ${error.message}`).join('; '), { errors });
    if (ifMatch === undefined) throw new AppError('PRECONDITION_REQUIRED');

    const plan = await new FloorPlansRepository(this.db).replace(departmentId, body.positions, (currentEtag, deskDepartments) => {
      if (!ifMatchAccepts(ifMatch, currentEtag)) {
        throw new AppError('PLAN_CHANGED', `The plan's ETag is now ${currentEtag}, not ${ifMatch}`);
      }
      const unknown: FieldError[] = [];
      body.positions.forEach((position, index) => {
        const owner = deskDepartments.get(position.deskId);
        if (owner === undefined) unknown.push({ field: `positions.${index}.deskId`, message: `desk ${position.deskId} does not exist` });
        else if (owner !== departmentId)
          unknown.push({ field: `positions.${index}.deskId`, message: `desk ${position.deskId} belongs to another department (${owner})` });
      });
      if (unknown.length > 0) {
        throw new AppError(
          'VALIDATION_FAILED',
          `Only desks of department ${departmentId} can be placed on its plan: ${unknown.map((e) => e.message).join('; ')}`,
          {
            errors: unknown,
          },
        );
      }
    });
    if (!plan) throw notFound('Department', departmentId);
    return toFloorPlanDto(departmentId, plan);
  }

  async availability(departmentId: string, query: AvailabilityQuery, caller: Caller): Promise<FloorPlanAvailabilityDto> {
    const from = parseInstant('from', query.from);
    const to = parseInstant('to', query.to);
    if (from.getTime() >= to.getTime())
      throw new AppError('VALIDATION_FAILED', 'to: must be after from', { errors: [{ field: 'to', message: 'must be after from' }] });
    if (to.getTime() - from.getTime() > AVAILABILITY_MAX_WINDOW_DAYS * DAY_MS) {
      const message = `the window may be at most ${AVAILABILITY_MAX_WINDOW_DAYS} days long`;
      throw new AppError('VALIDATION_FAILED', `to: ${message}`, { errors: [{ field: 'to', message }] });
    }
    const rows = await this.reads.read(caller.user.lastWriteLsn, (db) =>
      new FloorPlansRepository(db).availability(departmentId, { start: from, end: to }, caller.user.id),
    );
    if (!rows) throw notFound('Department', departmentId);
    const iso = isoStrings();
    return { departmentId, from: iso(from.getTime()), to: iso(to.getTime()), desks: rows.map((row) => toDeskAvailabilityDto(row, iso)) };
  }
}
