import { TextField } from '../../../components/ui.js';
import { SHORT_TEXT_MAX } from '../../../lib/fields.js';
import type { SchemaForm } from '../../../lib/forms.js';
import type { DepartmentForm } from '../forms.js';

export function DepartmentFields({ form }: { form: SchemaForm<typeof DepartmentForm> }) {
  return (
    <div className="field-row">
      <TextField label="Location" maxLength={SHORT_TEXT_MAX} {...form.field('location')} placeholder="City or site" />
      <TextField label="Building" maxLength={SHORT_TEXT_MAX} {...form.field('building')} />
      <TextField label="Floor" type="number" inputMode="numeric" {...form.field('floor', { valueAsNumber: true })} />
    </div>
  );
}
