import { useTranslation } from 'react-i18next';
import type { Department } from '../../../api/types.js';
import { DetailsPanel } from '../../../components/DetailsPanel.js';
import { Loaded, PageHeader } from '../../../components/ui.js';
import { useTitle } from '../../../hooks.js';
import { FloorPlanEditor } from '../../floor-plans/components/FloorPlanEditor.js';
import { useSchemaForm } from '../../../lib/forms.js';
import { navigate } from '../../../router.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { DeleteInventoryDialog } from '../components/DeleteInventoryDialog.js';
import { DepartmentFields } from '../components/DepartmentFields.js';
import { DepartmentImage } from '../components/DepartmentImage.js';
import { DepartmentSettingsForm } from '../components/DepartmentSettingsForm.js';
import { detailsState } from '../components/details.js';
import { Rooms } from '../components/Rooms.js';
import { DEPARTMENT_RULES, DepartmentForm } from '../forms.js';
import { departmentLabel } from '../../../lib/labels.js';
import { useDepartment, useSaveDepartment } from '../queries.js';
import '../styles.css';

export function DepartmentPage({ departmentId }: { departmentId: string }) {
  const { t } = useTranslation('inventory');
  const department = useDepartment(departmentId);
  useTitle(department.data ? departmentLabel(department.data) : t('common:fields.office'));
  return (
    <div className="page">
      <Loaded query={department} subject={t('department.subject')} label={t('department.loading')}>
        {(loaded) => (
          <>
            <Breadcrumbs trail={[{ to: '/admin/departments', label: t('departments.title') }, { label: departmentLabel(loaded) }]} />
            <PageHeader title={departmentLabel(loaded)} />
            <div className="two-columns">
              <DepartmentDetails department={loaded} />
              <DepartmentImage department={loaded} />
            </div>
            <section className="panel" aria-labelledby="office-settings-heading">
              <h2 id="office-settings-heading">{t('department.settingsHeading')}</h2>
              <DepartmentSettingsForm departmentId={departmentId} />
            </section>
            <Rooms departmentId={departmentId} />
            <FloorPlanEditor departmentId={departmentId} />
          </>
        )}
      </Loaded>
    </div>
  );
}

function DepartmentDetails({ department }: { department: Department }) {
  const { t } = useTranslation('inventory');
  const form = useSchemaForm(DepartmentForm, { location: department.location, building: department.building, floor: department.floor }, DEPARTMENT_RULES);
  const saving = useSaveDepartment();
  return (
    <DetailsPanel
      headingId="details-heading"
      {...detailsState(saving, t('department.subject'))}
      onSubmit={form.handleSubmit((body) => saving.mutate({ params: { path: { departmentId: department.id } }, body }))}
      deleteLabel={t('department.delete')}
      deleteDialog={(close) => (
        <DeleteInventoryDialog item={{ kind: 'department', department }} onDeleted={() => navigate('/admin/departments')} onClose={close} />
      )}
    >
      <DepartmentFields form={form} />
    </DetailsPanel>
  );
}
