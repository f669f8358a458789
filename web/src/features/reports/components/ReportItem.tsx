import { $api } from '../../../api/client.js';
import type { Report } from '../../../api/types.js';
import { formatDateTime } from '../../../lib/time.js';
import { departmentLabel, equipmentLabel } from '../../../lib/labels.js';
import { useInventoryNames } from '../../inventory/queries.js';
import { fullName } from '../../users/person.js';
import '../styles.css';

// Names of people and equipment hardly change while the page is open.
const FRESH_MS = 5 * 60_000;

export function ReportItem({ report, onDelete }: { report: Report; onDelete: () => void }) {
  const names = useInventoryNames(report);
  const reporter = $api.useQuery('get', '/api/users/{id}', { params: { path: { id: report.reportedBy } } }, { staleTime: FRESH_MS, select: fullName });
  const { departmentId, roomId, deskId, equipmentId } = report;
  const equipment = $api.useQuery(
    'get',
    '/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment/{equipmentId}',
    { params: { path: { departmentId: departmentId ?? '', roomId: roomId ?? '', deskId: deskId ?? '', equipmentId: equipmentId ?? '' } } },
    { enabled: Boolean(departmentId && roomId && deskId && equipmentId), staleTime: FRESH_MS, select: (item) => `${item.name} (${equipmentLabel(item.type)})` },
  );
  const where = [names.department && departmentLabel(names.department), names.room && `room ${names.room.name}`, names.deskName && `desk ${names.deskName}`]
    .filter(Boolean)
    .join(', ');
  return (
    <li className="report">
      <div className="report-head">
        <h2 className="report-title">{report.title}</h2>
        <button type="button" className="button-danger button-small" onClick={onDelete} aria-label={`Delete report ${report.title}`}>
          Delete
        </button>
      </div>
      <p className="muted">
        {formatDateTime(report.createdAt)} · by {reporter.error ? 'a former user' : (reporter.data ?? '…')}
        {where && <> · {where}</>}
        {equipment.data && <> · {equipment.data}</>}
      </p>
      <p className="report-description">{report.description}</p>
    </li>
  );
}
