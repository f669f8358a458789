import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, FormButtons, Loaded, SelectField, TextField } from '../../components/ui.js';
import { departmentLabel } from '../../lib/labels.js';
import { errorText } from '../../lib/problems.js';
import { useAllDepartments } from '../inventory/queries.js';
import { useBookingDefaults, useSaveBookingDefaults } from './queries.js';
import './styles.css';

interface DefaultsValues {
  homeDepartmentId: string;
  window: 'NONE' | 'HOURS' | 'WHOLE_DAY';
  startTime: string;
  endTime: string;
}

/**
 * "Booking defaults" on the profile (docs/favourites.md#home-office-and-default-window): the home
 * office Find a desk preselects and the window it prefills.
 */
export function BookingDefaultsSection() {
  const defaults = useBookingDefaults();
  return (
    <section className="panel" aria-labelledby="booking-defaults-heading">
      <h2 id="booking-defaults-heading">Booking defaults</h2>
      <p className="muted">Find a desk opens on your home office and your usual hours.</p>
      <Loaded query={defaults} label="Loading your booking defaults…">
        {(saved) => (
          <DefaultsForm
            initial={{
              homeDepartmentId: saved.homeDepartmentId ?? '',
              window: saved.window,
              startTime: saved.startTime ?? '09:00',
              endTime: saved.endTime ?? '17:00',
            }}
          />
        )}
      </Loaded>
    </section>
  );
}

function DefaultsForm({ initial }: { initial: DefaultsValues }) {
  const departments = useAllDepartments();
  const saving = useSaveBookingDefaults();
  const [saved, setSaved] = useState(false);
  const form = useForm<DefaultsValues>({ defaultValues: initial });
  const window = form.watch('window');
  const submit = form.handleSubmit((values) => {
    setSaved(false);
    if (values.window === 'HOURS' && values.endTime <= values.startTime) {
      form.setError('endTime', { message: 'The end must be after the start.' });
      return;
    }
    saving.mutate(
      {
        body: {
          homeDepartmentId: values.homeDepartmentId || null,
          window: values.window,
          startTime: values.window === 'HOURS' ? values.startTime : null,
          endTime: values.window === 'HOURS' ? values.endTime : null,
        },
      },
      { onSuccess: () => setSaved(true) },
    );
  });
  const failure = errorText(saving.error);
  return (
    <form onSubmit={submit} noValidate className="stack" aria-label="Booking defaults">
      <SelectField label="Home office" {...form.register('homeDepartmentId', { onChange: () => setSaved(false) })}>
        <option value="">None</option>
        {(departments.data ?? []).map((department) => (
          <option key={department.id} value={department.id}>
            {departmentLabel(department)}
          </option>
        ))}
      </SelectField>
      <SelectField label="Usual hours" {...form.register('window', { onChange: () => setSaved(false) })}>
        <option value="NONE">None (09:00–17:00)</option>
        <option value="HOURS">From… to…</option>
        <option value="WHOLE_DAY">The whole day</option>
      </SelectField>
      {window === 'HOURS' && (
        <div className="field-pair">
          <TextField label="From" type="time" step={900} {...form.register('startTime')} error={form.formState.errors.startTime?.message} />
          <TextField label="To" type="time" step={900} {...form.register('endTime')} error={form.formState.errors.endTime?.message} />
        </div>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      {saved && <Alert kind="success">Saved: Find a desk opens on them.</Alert>}
      <FormButtons busy={saving.isPending} busyLabel="Saving…">
        Save booking defaults
      </FormButtons>
    </form>
  );
}
