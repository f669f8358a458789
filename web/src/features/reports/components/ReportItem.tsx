import { useTranslation } from 'react-i18next';
import type { ReportWithStatus } from '../../../api/types.js';
import { formatDateTime } from '../../../lib/time.js';
import { departmentLabel, deskPhrase } from '../../../lib/labels.js';
import { useInventoryNames } from '../../inventory/queries.js';
import { useReportedEquipment, useReporterName } from '../queries.js';
import { ReportStatusBadge, ReportStatusNote } from './ReportStatusBadge.js';
import '../styles.css';

// Names of people and equipment hardly change while the page is open.

export function ReportItem({ item, onStatus, onDelete }: { item: ReportWithStatus; onStatus: () => void; onDelete: () => void }) {
  const { t } = useTranslation('reports');
  const { report, status } = item;
  const names = useInventoryNames(report);
  const reporter = useReporterName(report.reportedBy);
  const equipment = useReportedEquipment(report);
  const where = [
    names.department && departmentLabel(names.department),
    names.room && t('item.room', { name: names.room.name }),
    names.deskName && deskPhrase(names.deskName),
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <li className="report">
      <div className="report-head">
        <h2 className="report-title">
          {report.title} <ReportStatusBadge status={status} />
        </h2>
        <div className="report-actions">
          <button type="button" className="button-secondary button-small" onClick={onStatus} aria-label={t('item.statusOf', { title: report.title })}>
            {t('common:fields.status')}
          </button>
          <button type="button" className="button-danger button-small" onClick={onDelete} aria-label={t('item.deleteOf', { title: report.title })}>
            {t('common:delete')}
          </button>
        </div>
      </div>
      <p className="muted">
        {formatDateTime(report.createdAt)} · {reporter.error ? t('item.byFormer') : t('item.by', { name: reporter.data ?? '…' })}
        {where && <> · {where}</>}
        {equipment.data && <> · {equipment.data}</>}
      </p>
      <p className="report-description">{report.description}</p>
      <ReportStatusNote status={status} />
    </li>
  );
}
