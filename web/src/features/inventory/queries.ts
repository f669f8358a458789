import { $api } from '../../api/client.js';

/**
 * Whole lists of departments and of a department's rooms (with their desks): the choices of the
 * forms, and the names of the ids in reservations and reports. Kept fresh for a minute; any change
 * of the inventory makes them stale at once (api/query.ts, STALE_AFTER.inventory).
 */

const ALL = 1000;
const NAMES_FRESH_MS = 60_000;

export const useAllDepartments = () =>
  $api.useQuery('get', '/api/departments', { params: { query: { size: ALL } } }, { staleTime: NAMES_FRESH_MS, select: (page) => page.content });

/** The rooms of a department; nothing is read without one. */
export const useAllRooms = (departmentId: string | undefined) =>
  $api.useQuery(
    'get',
    '/api/departments/{departmentId}/rooms',
    { params: { path: { departmentId: departmentId ?? '' }, query: { size: ALL } } },
    { enabled: Boolean(departmentId), staleTime: NAMES_FRESH_MS, select: (page) => page.content },
  );

/** The equipment of a desk: its key names the whole path, so a desk that moved is read afresh. */
export const useEquipmentOf = (desk: { departmentId: string; roomId: string; id: string } | undefined) =>
  $api.useQuery(
    'get',
    '/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment',
    { params: { path: { departmentId: desk?.departmentId ?? '', roomId: desk?.roomId ?? '', deskId: desk?.id ?? '' }, query: { size: 100 } } },
    { enabled: desk !== undefined },
  );

/** Names of the department, room and desk of a reservation or report; parts deleted since (or not given) stay undefined. */
export function useInventoryNames(where: { departmentId?: string | null; roomId?: string | null; deskId?: string | null }) {
  const department = useAllDepartments().data?.find((candidate) => candidate.id === where.departmentId);
  const room = useAllRooms(department && where.roomId ? department.id : undefined).data?.find((candidate) => candidate.id === where.roomId);
  const deskName = room?.desks.find((desk) => desk.id === where.deskId)?.name;
  return { department, room, deskName };
}
