import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Desk, Equipment } from '../../../api/types.js';
import { Alert, FormButtons, Loaded, SelectField, TextArea, TextField } from '../../../components/ui.js';
import { SHORT_TEXT_MAX } from '../../../lib/fields.js';
import { useSchemaForm, type SchemaForm } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { EQUIPMENT_RULES, EquipmentForm } from '../forms.js';
import { deskPhrase, EQUIPMENT_TYPES, equipmentLabel } from '../../../lib/labels.js';
import { useCreateEquipment, useEquipmentOf, useSaveEquipment } from '../queries.js';
import { DeleteInventoryDialog } from './DeleteInventoryDialog.js';
import '../styles.css';

function EquipmentFields({ form }: { form: SchemaForm<typeof EquipmentForm> }) {
  const { t } = useTranslation('inventory');
  return (
    <>
      <div className="field-row">
        <SelectField label={t('equipment.type')} {...form.field('type')}>
          {EQUIPMENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {equipmentLabel(type)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('equipment.name')} maxLength={SHORT_TEXT_MAX} {...form.field('name')} />
      </div>
      <TextArea label={t('equipment.description')} rows={2} {...form.field('description')} />
    </>
  );
}

/** The equipment of a desk, and the form that adds a piece. */
export function EquipmentList({ desk }: { desk: Desk }) {
  const { t } = useTranslation('inventory');
  const items = useEquipmentOf(desk);
  const [adding, setAdding] = useState(false);
  return (
    <div className="equipment">
      <Loaded query={items} label={t('equipment.loading')}>
        {(page) =>
          page.content.length === 0 ? (
            <p className="muted">{t('equipment.none')}</p>
          ) : (
            <ul className="equipment-list" aria-label={t('equipment.listLabel', { desk: deskPhrase(desk.name) })}>
              {page.content.map((item) => (
                <EquipmentItem key={item.id} desk={desk} item={item} />
              ))}
            </ul>
          )
        }
      </Loaded>
      {adding ? (
        <NewEquipment desk={desk} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" className="button-link" onClick={() => setAdding(true)} aria-label={t('equipment.addLabel', { desk: deskPhrase(desk.name) })}>
          {t('equipment.addButton')}
        </button>
      )}
    </div>
  );
}

const deskPath = (desk: Desk) => ({ departmentId: desk.departmentId, roomId: desk.roomId, deskId: desk.id });

function NewEquipment({ desk, onDone }: { desk: Desk; onDone: () => void }) {
  const { t } = useTranslation('inventory');
  const form = useSchemaForm(EquipmentForm, { name: '', type: 'DOCKING_STATION', description: '' }, EQUIPMENT_RULES);
  const creating = useCreateEquipment(onDone);
  const failure = errorText(creating.error, t('desk.subject'));
  return (
    <form
      onSubmit={form.handleSubmit((body) => creating.mutate({ params: { path: deskPath(desk) }, body }))}
      noValidate
      className="inline-form stack"
      aria-label={t('equipment.addLabel', { desk: deskPhrase(desk.name) })}
    >
      {failure && <Alert kind="error">{failure}</Alert>}
      <EquipmentFields form={form} />
      <FormButtons onCancel={onDone} busy={creating.isPending} busyLabel={t('common:adding')} small>
        {t('equipment.addSubmit')}
      </FormButtons>
    </form>
  );
}

function EquipmentItem({ desk, item }: { desk: Desk; item: Equipment }) {
  const { t } = useTranslation('inventory');
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const form = useSchemaForm(EquipmentForm, { name: item.name, type: item.type, description: item.description }, EQUIPMENT_RULES);
  const saving = useSaveEquipment(() => setEditing(false));
  const failure = errorText(saving.error, t('equipment.subject'));

  if (editing) {
    return (
      <li className="equipment-item">
        <form
          onSubmit={form.handleSubmit((body) => saving.mutate({ params: { path: { ...deskPath(desk), equipmentId: item.id } }, body }))}
          noValidate
          className="stack grow"
          aria-label={t('equipment.editLabel', { name: item.name })}
        >
          {failure && <Alert kind="error">{failure}</Alert>}
          <EquipmentFields form={form} />
          <FormButtons onCancel={() => setEditing(false)} busy={saving.isPending} small>
            {t('common:save')}
          </FormButtons>
        </form>
      </li>
    );
  }
  return (
    <li className="equipment-item">
      <div>
        <strong>{item.name}</strong> <span className="badge">{equipmentLabel(item.type)}</span>
        {item.description && <p className="muted">{item.description}</p>}
      </div>
      <div className="item-actions">
        <button
          type="button"
          className="button-secondary button-small"
          onClick={() => setEditing(true)}
          aria-label={t('equipment.editLabel', { name: item.name })}
        >
          {t('common:edit')}
        </button>
        <button
          type="button"
          className="button-danger button-small"
          onClick={() => setDeleting(true)}
          aria-label={t('equipment.deleteLabel', { name: item.name })}
        >
          {t('common:delete')}
        </button>
      </div>
      {deleting && (
        <DeleteInventoryDialog item={{ kind: 'equipment', desk, equipment: item }} onDeleted={() => setDeleting(false)} onClose={() => setDeleting(false)} />
      )}
    </li>
  );
}
