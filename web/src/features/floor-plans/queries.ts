import { $api } from '../../api/client.js';
import type { paths } from '../../api/schema.js';

export type FloorPlan = paths['/api/departments/{departmentId}/floor-plan']['get']['responses'][200]['content']['application/json'];
export type FloorPlanDesk = FloorPlan['desks'][number];
export type FloorAvailability = paths['/api/departments/{departmentId}/floor-plan/availability']['get']['responses'][200]['content']['application/json'];
export type DeskAvailability = FloorAvailability['desks'][number];
export type DeskState = DeskAvailability['state'];

/** What a change of a plan makes stale: the plan and the availability drawn on it. */
export const STALE_AFTER_PLAN = ['/api/departments/{departmentId}/floor-plan', '/api/departments/{departmentId}/floor-plan/availability'] as const;

export const useFloorPlan = (departmentId: string) =>
  $api.useQuery('get', '/api/departments/{departmentId}/floor-plan', { params: { path: { departmentId } } });

export const useFloorAvailability = (departmentId: string | undefined, from: string, to: string) =>
  $api.useQuery(
    'get',
    '/api/departments/{departmentId}/floor-plan/availability',
    { params: { path: { departmentId: departmentId ?? '' }, query: { from, to } } },
    { enabled: Boolean(departmentId) },
  );

export const useSaveFloorPlan = () => $api.useMutation('put', '/api/departments/{departmentId}/floor-plan', { meta: { invalidates: STALE_AFTER_PLAN } });
