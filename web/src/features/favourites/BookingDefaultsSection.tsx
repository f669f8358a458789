import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('profile');
  const defaults = useBookingDefaults();
  return (
    <section className="panel" aria-labelledby="booking-defaults-heading">
      <h2 id="booking-defaults-heading">{t('bookingDefaults.heading')}</h2>
      <p className="muted">{t('bookingDefaults.intro')}</p>
      <Loaded query={defaults} label={t('bookingDefaults.loading')}>
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
  const { t } = useTranslation('profile');
  const departments = useAllDepartments();
  const saving = useSaveBookingDefaults();
  const [saved, setSaved] = useState(false);
  const form = useForm<DefaultsValues>({ defaultValues: initial });
  const window = form.watch('window');
  const submit = form.handleSubmit((values) => {
    setSaved(false);
    if (values.window === 'HOURS' && values.endTime <= values.startTime) {
      form.setError('endTime', { message: t('bookingDefaults.endAfterStart') });
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
    <form onSubmit={submit} noValidate className="stack" aria-label={t('bookingDefaults.heading')}>
      <SelectField label={t('bookingDefaults.homeOffice')} {...form.register('homeDepartmentId', { onChange: () => setSaved(false) })}>
        <option value="">{t('bookingDefaults.none')}</option>
        {(departments.data ?? []).map((department) => (
          <option key={department.id} value={department.id}>
            {departmentLabel(department)}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('bookingDefaults.usualHours')} {...form.register('window', { onChange: () => setSaved(false) })}>
        <option value="NONE">{t('bookingDefaults.noneHours', { from: '09:00', to: '17:00' })}</option>
        <option value="HOURS">{t('bookingDefaults.fromTo')}</option>
        <option value="WHOLE_DAY">{t('bookingDefaults.wholeDay')}</option>
      </SelectField>
      {window === 'HOURS' && (
        <div className="field-pair">
          <TextField label={t('common:fields.from')} type="time" step={900} {...form.register('startTime')} error={form.formState.errors.startTime?.message} />
          <TextField label={t('common:fields.to')} type="time" step={900} {...form.register('endTime')} error={form.formState.errors.endTime?.message} />
        </div>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      {saved && <Alert kind="success">{t('bookingDefaults.saved')}</Alert>}
      <FormButtons busy={saving.isPending} busyLabel={t('common:saving')}>
        {t('bookingDefaults.submit')}
      </FormButtons>
    </form>
  );
}
