import { keepPreviousData } from '@tanstack/react-query';
import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import type { Report, ReportSearch } from '../../api/types.js';
import { equipmentLabel } from '../../lib/labels.js';
import { fullName } from '../users/person.js';

/** Defect reports: reads and writes (docs/behaviour.md#defect-reports). */

const FRESH_MS = 5 * 60_000;
const PAGE_SIZE = 20;

/** Reports matching the admins' search, a page at a time. */
export const useReportSearch = (criteria: ReportSearch, page: number) =>
  $api.useQuery('post', '/api/search/reports', { params: { query: { page, size: PAGE_SIZE } }, body: criteria }, { placeholderData: keepPreviousData });

/** The caller's latest reports. */
export const useMyReports = (userId: string) => $api.useQuery('get', '/api/report', { params: { query: { reportedBy: userId, size: 5 } } });

export const useSendReport = (onSuccess: () => void) => $api.useMutation('post', '/api/report', { meta: { invalidates: STALE_AFTER.reports }, onSuccess });

/** Deletes a report (for DeleteDialog, which invalidates STALE_AFTER.reports). */
export const deleteReport = (id: string) => call(api.DELETE('/api/report/{id}', { params: { path: { id } } }));

/** The reporter's name, kept a while. */
export const useReporterName = (userId: string) =>
  $api.useQuery('get', '/api/users/{id}', { params: { path: { id: userId } } }, { staleTime: FRESH_MS, select: fullName });

/** "name (type)" of the reported equipment, when the report names one. */
export const useReportedEquipment = ({ departmentId, roomId, deskId, equipmentId }: Pick<Report, 'departmentId' | 'roomId' | 'deskId' | 'equipmentId'>) =>
  $api.useQuery(
    'get',
    '/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment/{equipmentId}',
    { params: { path: { departmentId: departmentId ?? '', roomId: roomId ?? '', deskId: deskId ?? '', equipmentId: equipmentId ?? '' } } },
    { enabled: Boolean(departmentId && roomId && deskId && equipmentId), staleTime: FRESH_MS, select: (item) => `${item.name} (${equipmentLabel(item.type)})` },
  );
