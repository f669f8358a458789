import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { STALE_AFTER } from '../../api/query.js';
import type { ReportStatusQuery, ReportWithStatus } from '../../api/types.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, EmptyState, Loaded, PageHeader, Pager, SelectField, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { departmentLabel } from '../../lib/labels.js';
import { useAllDepartments } from '../inventory/queries.js';
import { REPORT_STATUSES } from '../../lib/fields.js';
import { ReportItem } from './components/ReportItem.js';
import { ReportStatusDialog } from './components/ReportStatusDialog.js';
import { deleteReport, REPORT_STATUS_LABELS, useReportSearch } from './queries.js';

type Status = NonNullable<ReportStatusQuery['status']>;

/** The search criteria of the form: empty fields ask for nothing. */
const criteriaOf = (form: { title: string; description: string; department: string; status: string }): ReportStatusQuery => ({
  ...(form.title.trim() ? { title: form.title.trim() } : {}),
  ...(form.description.trim() ? { description: form.description.trim() } : {}),
  ...(form.department ? { departmentId: form.department } : {}),
  ...(form.status ? { status: form.status as Status } : {}),
});

export function ReportsPage() {
  useTitle('Defect reports');
  const form = useForm({ defaultValues: { title: '', description: '', department: '', status: '' } });
  const [criteria, setCriteria] = useState<ReportStatusQuery>({});
  const [page, setPage] = useState(0);
  const [deleting, setDeleting] = useState<ReportWithStatus['report']>();
  const [changing, setChanging] = useState<ReportWithStatus>();
  const [notice, setNotice] = useState<string>();
  const departments = useAllDepartments();
  const reports = useReportSearch(criteria, page);

  const submit = form.handleSubmit((values) => {
    const next = criteriaOf(values);
    // The same search again reads afresh.
    if (page === 0 && JSON.stringify(next) === JSON.stringify(criteria)) void reports.refetch();
    setPage(0);
    setCriteria(next);
  });

  return (
    <div className="page">
      <PageHeader title="Defect reports" />
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <form className="panel" onSubmit={submit} noValidate aria-label="Search reports">
        <div className="field-row field-row-end report-filters">
          <TextField label="Title contains" type="search" {...form.register('title')} />
          <TextField label="Description contains" type="search" {...form.register('description')} />
          <SelectField label="Office" {...form.register('department')}>
            <option value="">All offices</option>
            {(departments.data ?? []).map((department) => (
              <option key={department.id} value={department.id}>
                {departmentLabel(department)}
              </option>
            ))}
          </SelectField>
          <SelectField label="Status" {...form.register('status')}>
            <option value="">Any status</option>
            {REPORT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {REPORT_STATUS_LABELS[status]}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="button-primary">
            Search
          </button>
        </div>
      </form>
      <Loaded query={reports} label="Loading reports…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{Object.keys(criteria).length > 0 ? 'No report matches this search.' : 'No defects have been reported.'}</EmptyState>
          ) : (
            <>
              <p className="muted">
                {result.totalElements} {result.totalElements === 1 ? 'report' : 'reports'}, newest first
              </p>
              <ul className="report-list">
                {result.content.map((item) => (
                  <ReportItem key={item.report.id} item={item} onStatus={() => setChanging(item)} onDelete={() => setDeleting(item.report)} />
                ))}
              </ul>
              <Pager page={result.number} totalPages={result.totalPages} onPage={setPage} label="Report pages" />
            </>
          )
        }
      </Loaded>
      {changing && (
        <ReportStatusDialog
          item={changing}
          onClose={() => setChanging(undefined)}
          onSaved={(message) => {
            setNotice(message);
            setChanging(undefined);
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          title="Delete this report?"
          question={`“${deleting.title}” will be deleted. Do this once the problem is fixed or the report is not needed.`}
          subject="This report"
          remove={() => deleteReport(deleting.id)}
          invalidates={STALE_AFTER.reports}
          onDeleted={() => {
            setNotice(`“${deleting.title}” has been deleted.`);
            setDeleting(undefined);
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}
