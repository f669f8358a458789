import { keepPreviousData } from '@tanstack/react-query';
import { $api, api, call } from '../../api/client.js';
import { STALE_AFTER } from '../../api/query.js';
import type { Report, ReportStatusQuery } from '../../api/types.js';
import { equipmentLabel } from '../../lib/labels.js';
import { translate } from '../../lib/translate.js';
import { fullName } from '../users/person.js';

/** Defect reports: reads and writes (docs/behaviour.md#defect-reports). */

const FRESH_MS = 5 * 60_000;
const PAGE_SIZE = 20;

/** Reports with their status matching the admins' search (docs/behaviour.md#report-status), a page at a time. */
export const useReportSearch = (criteria: ReportStatusQuery, page: number) =>
  $api.useQuery('get', '/api/report-statuses', { params: { query: { ...criteria, page, size: PAGE_SIZE } } }, { placeholderData: keepPreviousData });

/** The caller's latest reports, each with its status. */
export const useMyReports = (userId: string) => $api.useQuery('get', '/api/report-statuses', { params: { query: { reportedBy: userId, size: 10 } } });

/** Sets a report's status and note (admins). */
export const useSetReportStatus = () => $api.useMutation('put', '/api/report/{id}/status', { meta: { invalidates: STALE_AFTER.reports } });

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
    {
      enabled: Boolean(departmentId && roomId && deskId && equipmentId),
      staleTime: FRESH_MS,
      select: (item) => translate('reports:equipment', { name: item.name, type: equipmentLabel(item.type) }),
    },
  );
