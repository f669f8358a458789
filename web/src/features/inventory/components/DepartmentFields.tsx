import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui.js';
import { SHORT_TEXT_MAX } from '../../../lib/fields.js';
import type { SchemaForm } from '../../../lib/forms.js';
import type { DepartmentForm } from '../forms.js';

export function DepartmentFields({ form }: { form: SchemaForm<typeof DepartmentForm> }) {
  const { t } = useTranslation('inventory');
  return (
    <div className="field-row">
      <TextField label={t('common:fields.location')} maxLength={SHORT_TEXT_MAX} {...form.field('location')} placeholder={t('department.locationPlaceholder')} />
      <TextField label={t('common:fields.building')} maxLength={SHORT_TEXT_MAX} {...form.field('building')} />
      <TextField label={t('common:fields.floor')} type="number" inputMode="numeric" {...form.field('floor', { valueAsNumber: true })} />
    </div>
  );
}
