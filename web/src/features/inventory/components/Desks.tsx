import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Desk } from '../../../api/types.js';
import { Alert, FormButtons, SelectField, TextField } from '../../../components/ui.js';
import { SHORT_TEXT_MAX } from '../../../lib/fields.js';
import { useSchemaForm, type SchemaForm } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { AddForm } from './AddForm.js';
import { DESK_RULES, DeskForm } from '../forms.js';
import { deskPhrase, deskTitle, deskTypeChoices } from '../../../lib/labels.js';
import { DeleteInventoryDialog } from './DeleteInventoryDialog.js';
import { EquipmentList } from './Equipment.js';
import { AssignDeskDialog } from './AssignDeskDialog.js';
import { useCreateDesk, useSaveDesk } from '../queries.js';
import '../styles.css';

function DeskFields({ form }: { form: SchemaForm<typeof DeskForm> }) {
  const { t } = useTranslation('inventory');
  return (
    <>
      <TextField label={t('desk.name')} maxLength={SHORT_TEXT_MAX} {...form.field('name')} />
      <SelectField label={t('desk.type')} {...form.field('type')}>
        {deskTypeChoices().map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
    </>
  );
}

const NO_DESK = { name: '', type: 'FLEX' as const };

export function NewDesk({ departmentId, roomId }: { departmentId: string; roomId: string }) {
  const { t } = useTranslation('inventory');
  const form = useSchemaForm(DeskForm, NO_DESK, DESK_RULES);
  // Back to a flexible desk after each one: a fixed desk is the exception, and a kept "Fixed" made
  // the next desk fixed without anyone noticing (issue 26, item 8).
  const creating = useCreateDesk(() => form.reset(NO_DESK));
  const failure = errorText(creating.error, t('room.subject'));
  return (
    <AddForm
      title={t('desk.add')}
      submitLabel={t('desk.addSubmit')}
      onSubmit={form.handleSubmit((body) => creating.mutate({ params: { path: { departmentId, roomId } }, body }))}
      failure={failure}
      busy={creating.isPending}
    >
      <DeskFields form={form} />
    </AddForm>
  );
}

export function DeskItem({ desk }: { desk: Desk }) {
  const { t } = useTranslation('inventory');
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const [assigned, setAssigned] = useState<string>();
  const form = useSchemaForm(DeskForm, { name: desk.name, type: desk.type }, DESK_RULES);
  const saving = useSaveDesk(() => setEditing(false));
  const failure = errorText(saving.error, t('desk.subject'));
  const path = { departmentId: desk.departmentId, roomId: desk.roomId, deskId: desk.id };

  return (
    <li className="desk-admin">
      <div className="desk-admin-head">
        {editing ? (
          <form
            onSubmit={form.handleSubmit((body) => saving.mutate({ params: { path }, body }))}
            noValidate
            className="field-row field-row-end grow"
            aria-label={t('desk.editLabel', { desk: deskPhrase(desk.name) })}
          >
            <DeskFields form={form} />
            <FormButtons className="item-actions" onCancel={() => setEditing(false)} busy={saving.isPending} small>
              {t('common:save')}
            </FormButtons>
          </form>
        ) : (
          <>
            <h3>
              {deskTitle(desk.name)}{' '}
              <span className={desk.type === 'FIXED' ? 'badge badge-warning' : 'badge'}>{desk.type === 'FIXED' ? t('desk.fixed') : t('desk.flexible')}</span>
            </h3>
            <div className="item-actions">
              <button
                type="button"
                className="button-secondary button-small"
                onClick={() => setEditing(true)}
                aria-label={t('desk.editLabel', { desk: deskPhrase(desk.name) })}
              >
                {t('common:edit')}
              </button>
              {desk.type === 'FIXED' && (
                <button
                  type="button"
                  className="button-secondary button-small"
                  onClick={() => setAssigning(true)}
                  aria-label={t('desk.assignLabel', { desk: deskPhrase(desk.name) })}
                >
                  {t('desk.assign')}
                </button>
              )}
              <button
                type="button"
                className="button-danger button-small"
                onClick={() => setDeleting(true)}
                aria-label={t('desk.deleteLabel', { desk: deskPhrase(desk.name) })}
              >
                {t('common:delete')}
              </button>
            </div>
          </>
        )}
      </div>
      {failure && <Alert kind="error">{failure}</Alert>}
      {assigned && (
        <Alert kind="success" onDismiss={() => setAssigned(undefined)}>
          {assigned}
        </Alert>
      )}
      <EquipmentList desk={desk} />
      {assigning && (
        <AssignDeskDialog
          desk={desk}
          onClose={() => setAssigning(false)}
          onAssigned={(text) => {
            setAssigning(false);
            setAssigned(text);
          }}
        />
      )}
      {deleting && <DeleteInventoryDialog item={{ kind: 'desk', desk }} onDeleted={() => setDeleting(false)} onClose={() => setDeleting(false)} />}
    </li>
  );
}
