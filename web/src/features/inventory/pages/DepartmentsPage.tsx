import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Department } from '../../../api/types.js';
import { Alert, EmptyState, FormButtons, ItemTable, Loaded, PageHeader } from '../../../components/ui.js';
import { useTitle } from '../../../hooks.js';
import { useSchemaForm } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { Link, navigate } from '../../../router.js';
import { DeleteInventoryDialog } from '../components/DeleteInventoryDialog.js';
import { DepartmentFields } from '../components/DepartmentFields.js';
import { TimeZoneField } from '../components/TimeZoneField.js';
import { browserZone } from '../../../lib/time.js';
import { DEPARTMENT_RULES, DepartmentForm } from '../forms.js';
import { departmentLabel, floorLabel } from '../../../lib/labels.js';
import { useCreateDepartment, useDepartments } from '../queries.js';

/** The departments ("Offices" to people): one floor of a building at a location each. */
export function DepartmentsPage() {
  const { t } = useTranslation('inventory');
  useTitle(t('departments.title'));
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Department>();
  const [notice, setNotice] = useState<string>();
  const list = useDepartments(page);

  return (
    <div className="page">
      <PageHeader title={t('departments.title')}>
        {!adding && (
          <button type="button" className="button-primary" onClick={() => setAdding(true)}>
            {t('departments.add')}
          </button>
        )}
      </PageHeader>
      <p className="lead">{t('departments.lead')}</p>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      {adding && <NewDepartment onCancel={() => setAdding(false)} />}
      <Loaded query={list} label={t('departments.loading')}>
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>{t('departments.empty')}</EmptyState>
          ) : (
            <ItemTable
              columns={[t('common:fields.location'), t('common:fields.building'), t('common:fields.floor'), t('departments.rooms')]}
              page={result}
              onPage={setPage}
              label={t('departments.pages')}
              cells={(department) => (
                <>
                  <td data-label={t('common:fields.location')}>
                    <Link to={`/admin/departments/${department.id}`}>{department.location}</Link>
                  </td>
                  <td data-label={t('common:fields.building')}>{department.building}</td>
                  <td data-label={t('common:fields.floor')}>{floorLabel(department.floor)}</td>
                  <td data-label={t('departments.rooms')}>{department.rooms.length}</td>
                </>
              )}
              actions={(department) => (
                <>
                  <Link
                    to={`/admin/departments/${department.id}`}
                    className="button button-secondary button-small"
                    aria-label={t('departments.manageLabel', { office: departmentLabel(department) })}
                  >
                    {t('manage')}
                  </Link>
                  <button
                    type="button"
                    className="button-danger button-small"
                    onClick={() => setDeleting(department)}
                    aria-label={t('departments.deleteLabel', { office: departmentLabel(department) })}
                  >
                    {t('common:delete')}
                  </button>
                </>
              )}
            />
          )
        }
      </Loaded>
      {deleting && (
        <DeleteInventoryDialog
          item={{ kind: 'department', department: deleting }}
          onDeleted={() => {
            setNotice(t('departments.deleted', { office: departmentLabel(deleting) }));
            setDeleting(undefined);
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}

/** A new office, with its time zone: proposed from the browser (docs/behaviour.md#office-time-zone). */
function NewDepartment({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation('inventory');
  const form = useSchemaForm(DepartmentForm, { location: '', building: '', floor: 0 }, DEPARTMENT_RULES);
  const [timeZone, setTimeZone] = useState(browserZone);
  const creating = useCreateDepartment((created) => navigate(`/admin/departments/${created.id}`));
  const failure = errorText(creating.error);
  return (
    <form className="panel stack" onSubmit={form.handleSubmit((body) => creating.mutate({ body, timeZone }))} noValidate aria-label={t('departments.new')}>
      <h2>{t('departments.new')}</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      <DepartmentFields form={form} />
      <TimeZoneField name="timeZone" current={timeZone} value={timeZone} onChange={(event) => setTimeZone(event.target.value)} />
      <FormButtons onCancel={onCancel} busy={creating.isPending} busyLabel={t('departments.creating')}>
        {t('departments.create')}
      </FormButtons>
    </form>
  );
}
