import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { departments as loadDepartments, placeNames } from '../../api/places.js';
import type { Report, ReportSearch } from '../../api/types.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, EmptyState, Loaded, PageHeader, Pager, SelectField, TextField } from '../../components/ui.js';
import { useLoad, useTitle } from '../../hooks.js';
import { equipmentLabel, placeLabel } from '../../lib/search.js';
import { formatDateTime } from '../../lib/time.js';

const PAGE_SIZE = 20;

// Reporter names, looked up once per user while the page lives.
const reporters = new Map<string, Promise<string>>();
function reporterName(userId: string): Promise<string> {
  let name = reporters.get(userId);
  if (!name) {
    name = call(api.GET('/api/users/{id}', { params: { path: { id: userId } } }))
      .then((user) => `${user.firstName} ${user.lastName}`)
      .catch(() => 'a former user');
    reporters.set(userId, name);
  }
  return name;
}

export function ReportsPage() {
  useTitle('Defect reports');
  const [form, setForm] = useState({ title: '', description: '', department: '' });
  const [criteria, setCriteria] = useState<ReportSearch>({});
  const [page, setPage] = useState(0);
  const [deleting, setDeleting] = useState<Report>();
  const [notice, setNotice] = useState<string>();
  const departments = useLoad(loadDepartments, []);
  const reports = useLoad(() => call(api.POST('/api/search/reports', { params: { query: { page, size: PAGE_SIZE } }, body: criteria })), [criteria, page]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPage(0);
    setCriteria({
      ...(form.title.trim() ? { title: form.title.trim() } : {}),
      ...(form.description.trim() ? { description: form.description.trim() } : {}),
      ...(form.department ? { department: form.department } : {}),
    });
  };

  return (
    <div className="page">
      <PageHeader title="Defect reports" />
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <form className="panel" onSubmit={submit} noValidate aria-label="Search reports">
        <div className="field-row field-row-end">
          <TextField label="Title contains" type="search" value={form.title} onChange={(event) => setForm({ ...form, title: event.target.value })} />
          <TextField label="Description contains" type="search" value={form.description} onChange={(event) => setForm({ ...form, description: event.target.value })} />
          <SelectField label="Office" value={form.department} onChange={(event) => setForm({ ...form, department: event.target.value })}>
            <option value="">All offices</option>
            {(departments.state.data ?? []).map((department) => (
              <option key={department.id} value={department.id}>
                {placeLabel(department)}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="button-primary">
            Search
          </button>
        </div>
      </form>
      <Loaded state={reports.state} retry={() => void reports.reload()} label="Loading reports…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{Object.keys(criteria).length > 0 ? 'No report matches this search.' : 'No defects have been reported.'}</EmptyState>
          ) : (
            <>
              <p className="muted">
                {result.totalElements} {result.totalElements === 1 ? 'report' : 'reports'}, newest first
              </p>
              <ul className="report-list">
                {result.content.map((report) => (
                  <ReportItem key={report.id} report={report} onDelete={() => setDeleting(report)} />
                ))}
              </ul>
              <Pager page={result.number} totalPages={result.totalPages} onPage={setPage} label="Report pages" />
            </>
          )
        }
      </Loaded>
      {deleting && (
        <DeleteDialog
          title="Delete this report?"
          question={`“${deleting.title}” will be deleted. Do this once the problem is fixed or the report is not needed.`}
          subject="This report"
          onDelete={() => call(api.DELETE('/api/report/{id}', { params: { path: { id: deleting.id } } }))}
          onDeleted={() => {
            setNotice(`“${deleting.title}” has been deleted.`);
            setDeleting(undefined);
            void reports.reload();
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}

function ReportItem({ report, onDelete }: { report: Report; onDelete: () => void }) {
  const place = useLoad(() => placeNames(report), [report.departmentId, report.roomId, report.deskId]);
  const reporter = useLoad(() => reporterName(report.reportedBy), [report.reportedBy]);
  const equipment = useLoad(async () => {
    const { departmentId, roomId, deskId, equipmentId } = report;
    if (!departmentId || !roomId || !deskId || !equipmentId) return undefined;
    const item = await call(api.GET('/api/departments/{departmentId}/rooms/{roomId}/desks/{deskId}/equipment/{equipmentId}', { params: { path: { departmentId, roomId, deskId, equipmentId } } }));
    return `${item.name} (${equipmentLabel(item.type)})`;
  }, [report.equipmentId]);
  const names = place.state.data;
  const where = [names?.department && placeLabel(names.department), names?.room && `room ${names.room.name}`, names?.deskName && `desk ${names.deskName}`].filter(Boolean).join(', ');
  return (
    <li className="report">
      <div className="report-head">
        <h2 className="report-title">{report.title}</h2>
        <button type="button" className="button-danger button-small" onClick={onDelete} aria-label={`Delete report ${report.title}`}>
          Delete
        </button>
      </div>
      <p className="muted">
        {formatDateTime(report.createdAt)} · by {reporter.state.data ?? '…'}
        {where && <> · {where}</>}
        {equipment.state.data && <> · {equipment.state.data}</>}
      </p>
      <p className="report-description">{report.description}</p>
    </li>
  );
}
