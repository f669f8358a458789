import { useState } from 'react';
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
  useTitle('Offices');
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Department>();
  const [notice, setNotice] = useState<string>();
  const list = useDepartments(page);

  return (
    <div className="page">
      <PageHeader title="Offices">
        {!adding && (
          <button type="button" className="button-primary" onClick={() => setAdding(true)}>
            Add an office
          </button>
        )}
      </PageHeader>
      <p className="lead">An office is one floor of a building at a location. It holds rooms, the rooms hold desks, and desks can have equipment.</p>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      {adding && <NewDepartment onCancel={() => setAdding(false)} />}
      <Loaded query={list} label="Loading offices…">
        {(result) =>
          result.content.length === 0 ? (
            <EmptyState>No offices yet. Add the first one to start.</EmptyState>
          ) : (
            <ItemTable
              columns={['Location', 'Building', 'Floor', 'Rooms']}
              page={result}
              onPage={setPage}
              label="Office pages"
              cells={(department) => (
                <>
                  <td data-label="Location">
                    <Link to={`/admin/departments/${department.id}`}>{department.location}</Link>
                  </td>
                  <td data-label="Building">{department.building}</td>
                  <td data-label="Floor">{floorLabel(department.floor)}</td>
                  <td data-label="Rooms">{department.rooms.length}</td>
                </>
              )}
              actions={(department) => (
                <>
                  <Link
                    to={`/admin/departments/${department.id}`}
                    className="button button-secondary button-small"
                    aria-label={`Manage ${departmentLabel(department)}`}
                  >
                    Manage
                  </Link>
                  <button
                    type="button"
                    className="button-danger button-small"
                    onClick={() => setDeleting(department)}
                    aria-label={`Delete ${departmentLabel(department)}`}
                  >
                    Delete
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
            setNotice(`${departmentLabel(deleting)} has been deleted.`);
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
  const form = useSchemaForm(DepartmentForm, { location: '', building: '', floor: 0 }, DEPARTMENT_RULES);
  const [timeZone, setTimeZone] = useState(browserZone);
  const creating = useCreateDepartment((created) => navigate(`/admin/departments/${created.id}`));
  const failure = errorText(creating.error);
  return (
    <form className="panel stack" onSubmit={form.handleSubmit((body) => creating.mutate({ body, timeZone }))} noValidate aria-label="New office">
      <h2>New office</h2>
      {failure && <Alert kind="error">{failure}</Alert>}
      <DepartmentFields form={form} />
      <TimeZoneField name="timeZone" current={timeZone} value={timeZone} onChange={(event) => setTimeZone(event.target.value)} />
      <FormButtons onCancel={onCancel} busy={creating.isPending} busyLabel="Creating…">
        Create the office
      </FormButtons>
    </form>
  );
}
