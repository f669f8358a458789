import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
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
import { deleteReport, useReportSearch } from './queries.js';

type Status = NonNullable<ReportStatusQuery['status']>;

/** The search criteria of the form: empty fields ask for nothing. */
const criteriaOf = (form: { title: string; description: string; department: string; status: string }): ReportStatusQuery => ({
  ...(form.title.trim() ? { title: form.title.trim() } : {}),
  ...(form.description.trim() ? { description: form.description.trim() } : {}),
  ...(form.department ? { departmentId: form.department } : {}),
  ...(form.status ? { status: form.status as Status } : {}),
});

export function ReportsPage() {
  const { t } = useTranslation('reports');
  useTitle(t('list.title'));
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
      <PageHeader title={t('list.title')} />
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <form className="panel" onSubmit={submit} noValidate aria-label={t('list.searchForm')}>
        <div className="field-row field-row-end report-filters">
          <TextField label={t('list.titleContains')} type="search" {...form.register('title')} />
          <TextField label={t('list.descriptionContains')} type="search" {...form.register('description')} />
          <SelectField label={t('common:fields.office')} {...form.register('department')}>
            <option value="">{t('list.allOffices')}</option>
            {(departments.data ?? []).map((department) => (
              <option key={department.id} value={department.id}>
                {departmentLabel(department)}
              </option>
            ))}
          </SelectField>
          <SelectField label={t('common:fields.status')} {...form.register('status')}>
            <option value="">{t('list.anyStatus')}</option>
            {REPORT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t('status', { status })}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="button-primary">
            {t('list.search')}
          </button>
        </div>
      </form>
      <Loaded query={reports} label={t('list.loading')}>
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{Object.keys(criteria).length > 0 ? t('list.noMatch') : t('list.none')}</EmptyState>
          ) : (
            <>
              <p className="muted">{t('list.count', { count: result.totalElements })}</p>
              <ul className="report-list">
                {result.content.map((item) => (
                  <ReportItem key={item.report.id} item={item} onStatus={() => setChanging(item)} onDelete={() => setDeleting(item.report)} />
                ))}
              </ul>
              <Pager page={result.number} totalPages={result.totalPages} onPage={setPage} label={t('list.pages')} />
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
          title={t('delete.title')}
          question={t('delete.question', { title: deleting.title })}
          subject={t('subject')}
          remove={() => deleteReport(deleting.id)}
          invalidates={STALE_AFTER.reports}
          onDeleted={() => {
            setNotice(t('delete.done', { title: deleting.title }));
            setDeleting(undefined);
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}
