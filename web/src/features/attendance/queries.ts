import { keepPreviousData } from '@tanstack/react-query';
import { $api } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import { translate } from '../../lib/translate.js';

/** Attendance reads and writes (docs/behaviour.md#attendance). */

export const ATTENDANCE_STATUSES = ['PENDING', 'CHECKED_IN', 'NO_SHOW', 'NOT_REQUIRED'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];

/**
 * An attendance status in words, in the language in use ("Check-in needed"); an unknown one as it
 * is. A component showing one loads the `checkin` namespace (useTranslation('checkin')).
 */
export const statusLabel = (status: string): string =>
  (ATTENDANCE_STATUSES as readonly string[]).includes(status) ? translate(`checkin:status.${status}`) : status;

/** The caller's attendance of reservations overlapping [from, ∞), by reservation id. */
export const useMyAttendance = (userId: string, from: string) =>
  $api.useQuery(
    'get',
    '/api/attendance',
    { params: { query: { userId, from, size: 1000 } } },
    { select: (page) => new Map(page.content.map((item) => [item.reservationId, item])) },
  );

/** Attendance of everyone (admins), a page at a time, filtered by department and status. */
export const useAttendanceList = (query: { from: string; to: string; page: number; departmentId?: string; status?: AttendanceStatus | '' }, enabled = true) =>
  $api.useQuery(
    'get',
    '/api/attendance',
    {
      params: {
        query: {
          from: query.from,
          to: query.to,
          page: query.page,
          size: 20,
          sort: ['startTime,desc'],
          ...(query.departmentId ? { departmentId: query.departmentId } : {}),
          ...(query.status ? { status: query.status } : {}),
        },
      },
    },
    { placeholderData: keepPreviousData, enabled },
  );

/** No-show rates per day of [from, to] (dates), optionally of one department. */
export const useNoShowRates = (from: string, to: string, departmentId?: string) =>
  $api.useQuery('get', '/api/stats/no-shows', { params: { query: { from, to, ...(departmentId ? { departmentId } : {}) } } });

/** The name of a person in the attendance list, kept a minute. */
export const usePerson = (id: string) => $api.useQuery('get', '/api/users/{id}', { params: { path: { id } } }, { staleTime: 60_000 });

/** A desk's day: its reservations and their attendance (the desk's QR code page). */
export const useDeskDay = (deskId: string) => $api.useQuery('get', '/api/desks/{deskId}/day', { params: { path: { deskId } } });

export const useCheckIn = (onSuccess?: () => void) =>
  $api.useMutation('post', '/api/reservation/{id}/check-in', { meta: { invalidates: STALE_AFTER.attendance }, onSuccess });

export const useWalkIn = (onSuccess?: () => void) =>
  $api.useMutation('post', '/api/desks/{deskId}/walk-in', { meta: { invalidates: STALE_AFTER.attendance }, onSuccess });

/** Whether check-in is open for an attendance at `now`: the server decides; this only hides the button. */
export function checkInOpen(attendance: { status: string; checkInOpensAt: string; releaseAt: string | null; endTime: string }, now = new Date()): boolean {
  if (attendance.status !== 'PENDING' && attendance.status !== 'NOT_REQUIRED') return false;
  const at = now.getTime();
  if (at < Date.parse(attendance.checkInOpensAt) || at >= Date.parse(attendance.endTime)) return false;
  if (attendance.status === 'PENDING' && attendance.releaseAt !== null && at >= Date.parse(attendance.releaseAt)) return false;
  return attendance.status === 'PENDING';
}

/** The equipment of one desk (the interface's own list, all of it on one page), as the desk's page shows it. */
export const useEquipmentOfDesk = (path: { departmentId: string; roomId: string; deskId: string }) =>
  $api.useQuery(
    'get',
    '/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment',
    { params: { path, query: { size: 1000 } } },
    { staleTime: 60_000 },
  );
