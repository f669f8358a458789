import type { AreaRow, RuleRow } from './policies.repository.js';
import { WEEKDAY_CODES, type AreaDto, type RuleDto } from './policies.schemas.js';

/** Rows → the API's shapes (docs/policies.md). Weekdays are stored as ISO numbers (1 = Monday) and shown as MO … SU. */

export const weekdayCodes = (days: number[]) => [...days].sort((a, b) => a - b).map((d) => WEEKDAY_CODES[d - 1]!);
export const weekdayNumbers = (codes: readonly string[]) => codes.map((code) => WEEKDAY_CODES.indexOf(code as (typeof WEEKDAY_CODES)[number]) + 1);

export const toAreaDto = (row: AreaRow & { teamIds: string[]; deskIds: string[] }): AreaDto => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  departmentId: row.departmentId,
  roomId: row.roomId,
  deskIds: row.deskIds,
  teamIds: row.teamIds,
  weekdays: weekdayCodes(row.weekdays),
  exclusive: row.exclusive,
  createdAt: row.createdAt.toISOString(),
  modifiedAt: row.modifiedAt.toISOString(),
});

export const toRuleDto = (row: RuleRow): RuleDto => {
  const params = row.params as Record<string, unknown>;
  return {
    id: row.id,
    name: row.name,
    scope: {
      kind: row.scope,
      ...(row.departmentId ? { departmentId: row.departmentId } : {}),
      ...(row.roomId ? { roomId: row.roomId } : {}),
      ...(row.areaId ? { areaId: row.areaId } : {}),
      ...(row.deskType ? { deskType: row.deskType } : {}),
    },
    who: { kind: row.who, ...(row.teamId ? { teamId: row.teamId } : {}), ...(row.role ? { role: row.role } : {}) },
    limit: {
      ...params,
      kind: row.kind,
      ...(Array.isArray(params.weekdays) ? { weekdays: weekdayCodes(params.weekdays as number[]) } : {}),
    } as RuleDto['limit'],
    appliesToAdmins: row.appliesToAdmins,
    createdAt: row.createdAt.toISOString(),
    modifiedAt: row.modifiedAt.toISOString(),
  };
};
