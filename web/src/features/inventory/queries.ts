import { keepPreviousData, useMutation } from '@tanstack/react-query';
import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import type { Department, Room } from '../../api/types.js';

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

// ---- pages and changes of the inventory (admins); every change makes STALE_AFTER.inventory stale ----

const PAGE_SIZE = 20;

/** A page of departments; the previous page stays shown while the next loads. */
export const useDepartments = (page: number) =>
  $api.useQuery('get', '/api/departments', { params: { query: { page, size: PAGE_SIZE } } }, { placeholderData: keepPreviousData });

export const useDepartment = (departmentId: string) => $api.useQuery('get', '/api/departments/{departmentId}', { params: { path: { departmentId } } });

/**
 * Creates an office, then sets its time zone (docs/behaviour.md#office-time-zone): asked for when
 * the office is created, proposed from the browser. If the second step fails the office exists
 * with UTC; its page shows the zone to correct.
 */
export const useCreateDepartment = (onSuccess: (created: Department) => void) =>
  useMutation({
    mutationFn: async ({ body, timeZone }: { body: { location: string; building: string; floor: number }; timeZone: string }) => {
      const created = await call(api.POST('/api/departments', { body }));
      await call(api.PUT('/api/departments/{departmentId}/settings', { params: { path: { departmentId: created.id } }, body: { timeZone } })).catch(
        () => undefined,
      );
      return created;
    },
    meta: { invalidates: STALE_AFTER.attendance },
    onSuccess,
  });

/** An office's time zone and check-in settings (admins; docs/behaviour.md#attendance-settings). */
export const useDepartmentSettings = (departmentId: string) =>
  $api.useQuery('get', '/api/departments/{departmentId}/settings', { params: { path: { departmentId } } });

export const useSaveDepartmentSettings = () =>
  $api.useMutation('put', '/api/departments/{departmentId}/settings', { meta: { invalidates: STALE_AFTER.attendance } });

/**
 * The sample office of an empty install (docs/behaviour.md#an-empty-install), in the browser's
 * time zone like an office created by hand.
 */
export const useLoadSampleData = (onSuccess: (loaded: Department) => void) =>
  useMutation({
    mutationFn: async (timeZone: string) => {
      const loaded = await call(api.POST('/api/sample-data'));
      await call(api.PUT('/api/departments/{departmentId}/settings', { params: { path: { departmentId: loaded.id } }, body: { timeZone } })).catch(
        () => undefined,
      );
      return loaded;
    },
    meta: { invalidates: STALE_AFTER.attendance },
    onSuccess,
  });

export const useSaveDepartment = () => $api.useMutation('put', '/api/departments/{departmentId}', { meta: { invalidates: STALE_AFTER.inventory } });

/** A page of a department's rooms. */
export const useRooms = (departmentId: string, page: number) =>
  $api.useQuery(
    'get',
    '/api/departments/{departmentId}/rooms',
    { params: { path: { departmentId }, query: { page, size: PAGE_SIZE } } },
    { placeholderData: keepPreviousData },
  );

export const useRoom = (departmentId: string, roomId: string) =>
  $api.useQuery('get', '/api/departments/{departmentId}/rooms/{roomId}', { params: { path: { departmentId, roomId } } });

export const useCreateRoom = (onSuccess: (room: Room) => void) =>
  $api.useMutation('post', '/api/departments/{departmentId}/rooms', { meta: { invalidates: STALE_AFTER.inventory }, onSuccess });

export const useSaveRoom = () => $api.useMutation('put', '/api/departments/{departmentId}/rooms/{roomId}', { meta: { invalidates: STALE_AFTER.inventory } });

export const useCreateDesk = (onSuccess: () => void) =>
  $api.useMutation('post', '/api/departments/{departmentId}/rooms/{roomId}/desks', { meta: { invalidates: STALE_AFTER.inventory }, onSuccess });

/** Several desks at once, all or none (docs/behaviour.md#adding-many-desks-at-once). */
export const useAddDesks = (onSuccess: (added: { desks: unknown[] }) => void) =>
  $api.useMutation('post', '/api/departments/{departmentId}/rooms/{roomId}/desks/batch', { meta: { invalidates: STALE_AFTER.inventory }, onSuccess });

/** A CSV file of desks (header name,type), all or none. */
export const useImportDesks = (onSuccess: (added: { desks: unknown[] }) => void) =>
  useMutation({
    mutationFn: ({ departmentId, roomId, file }: { departmentId: string; roomId: string; file: string }) =>
      call(
        api.POST('/api/departments/{departmentId}/rooms/{roomId}/desks/import', {
          params: { path: { departmentId, roomId } },
          body: file,
          headers: { 'content-type': 'text/csv' },
          bodySerializer: (body: string) => body,
        }),
      ),
    meta: { invalidates: STALE_AFTER.inventory },
    onSuccess,
  });

export const useSaveDesk = (onSuccess: () => void) =>
  $api.useMutation('put', '/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}', { meta: { invalidates: STALE_AFTER.inventory }, onSuccess });

export const useCreateEquipment = (onSuccess: () => void) =>
  $api.useMutation('post', '/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment', {
    meta: { invalidates: STALE_AFTER.inventory },
    onSuccess,
  });

export const useSaveEquipment = (onSuccess: () => void) =>
  $api.useMutation('put', '/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment/{equipmentId}', {
    meta: { invalidates: STALE_AFTER.inventory },
    onSuccess,
  });

// Deletes (for DeleteInventoryDialog, which makes STALE_AFTER.inventoryTree stale): `force` also
// deletes what the item holds (docs/behaviour.md#inventory-departments-rooms-desks-equipment).
const forced = (force: boolean) => (force ? { force } : {});

export const deleteDepartment = (path: { departmentId: string }, force: boolean) =>
  call(api.DELETE('/api/departments/{departmentId}', { params: { path, query: forced(force) } }));

export const deleteRoom = (path: { departmentId: string; roomId: string }, force: boolean) =>
  call(api.DELETE('/api/departments/{departmentId}/rooms/{roomId}', { params: { path, query: forced(force) } }));

export const deleteDesk = (path: { departmentId: string; roomId: string; deskId: string }, force: boolean) =>
  call(api.DELETE('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}', { params: { path, query: forced(force) } }));

export const deleteEquipment = (path: { departmentId: string; roomId: string; deskId: string; equipmentId: string }) =>
  call(api.DELETE('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment/{equipmentId}', { params: { path } }));

/** Assigns a FIXED desk to a person: a `fixed` reservation for them (docs/policies.md#booking-for-someone-else). */
export const useAssignDesk = () => $api.useMutation('post', '/api/reservation', { meta: { invalidates: STALE_AFTER.reservations } });
