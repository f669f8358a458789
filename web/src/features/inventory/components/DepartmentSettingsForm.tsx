import { Type } from '@sinclair/typebox';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepartmentSettings } from '../../../api/types.js';
import { Alert, SelectField, SubmitButton, TextField } from '../../../components/ui.js';
import { useSchemaForm } from '../../../lib/forms.js';
import { errorText } from '../../../lib/problems.js';
import { useDepartmentSettings, useSaveDepartmentSettings } from '../queries.js';
import { TimeZoneField } from './TimeZoneField.js';

const Minutes = (label: string) =>
  Type.String({ pattern: '^(|[0-9]{1,4})$', title: label, errorMessage: `${label}: whole minutes from 0 to 1440, or empty for the global setting.` });

const SettingsForm = Type.Object({
  checkInRequired: Type.Union([Type.Literal('inherit'), Type.Literal('yes'), Type.Literal('no')]),
  checkInOpensBeforeMinutes: Minutes('Check-in opens before the start'),
  checkInGraceMinutes: Minutes('Grace after the start'),
  timeZone: Type.String({ minLength: 1, maxLength: 64 }),
});

const toForm = (settings: DepartmentSettings) => ({
  checkInRequired: settings.checkInRequired === null ? ('inherit' as const) : settings.checkInRequired ? ('yes' as const) : ('no' as const),
  checkInOpensBeforeMinutes: settings.checkInOpensBeforeMinutes === null ? '' : String(settings.checkInOpensBeforeMinutes),
  checkInGraceMinutes: settings.checkInGraceMinutes === null ? '' : String(settings.checkInGraceMinutes),
  timeZone: settings.timeZone,
});

const minutesOrNull = (value: string) => (value.trim() === '' ? null : Math.min(1440, Number(value)));

/**
 * An office's time zone and check-in settings (docs/behaviour.md#attendance-settings), on the
 * office's own page, for admins.
 */
export function DepartmentSettingsForm({ departmentId }: { departmentId: string }) {
  const { t } = useTranslation('inventory');
  const settings = useDepartmentSettings(departmentId);
  const saving = useSaveDepartmentSettings();
  const form = useSchemaForm(SettingsForm, { checkInRequired: 'inherit', checkInOpensBeforeMinutes: '', checkInGraceMinutes: '', timeZone: 'UTC' });
  const { reset } = form;
  useEffect(() => {
    if (settings.data) reset(toForm(settings.data));
  }, [settings.data, reset]);
  const submit = form.handleSubmit((values) =>
    saving.mutate({
      params: { path: { departmentId } },
      body: {
        checkInRequired: values.checkInRequired === 'inherit' ? null : values.checkInRequired === 'yes',
        checkInOpensBeforeMinutes: minutesOrNull(values.checkInOpensBeforeMinutes),
        checkInGraceMinutes: minutesOrNull(values.checkInGraceMinutes),
        timeZone: values.timeZone,
      },
    }),
  );
  const effective = (saving.data ?? settings.data)?.effective;
  const failure = errorText(saving.error ?? settings.error, t('department.subject'));
  return (
    <form onSubmit={submit} noValidate className="stack" aria-label={t('settings.label')}>
      {failure && <Alert kind="error">{failure}</Alert>}
      {saving.isSuccess && <Alert kind="success">{t('settings.saved')}</Alert>}
      <TimeZoneField current={form.watch('timeZone')} {...form.field('timeZone')} />
      <SelectField label={t('settings.checkIn')} {...form.field('checkInRequired')}>
        <option value="inherit">{effective ? t('settings.inheritNow', { now: effective.checkInRequired ? 'yes' : 'no' }) : t('settings.inherit')}</option>
        <option value="yes">{t('common:yes')}</option>
        <option value="no">{t('common:no')}</option>
      </SelectField>
      <div className="field-pair">
        <TextField
          label={t('settings.opens')}
          inputMode="numeric"
          hint={effective ? t('settings.globalHint', { global: effective.checkInOpensBeforeMinutes }) : undefined}
          {...form.field('checkInOpensBeforeMinutes')}
        />
        <TextField
          label={t('settings.grace')}
          inputMode="numeric"
          hint={effective ? t('settings.globalHint', { global: effective.checkInGraceMinutes }) : undefined}
          {...form.field('checkInGraceMinutes')}
        />
      </div>
      <div>
        <SubmitButton busy={saving.isPending} busyLabel={t('common:saving')}>
          {t('settings.save')}
        </SubmitButton>
      </div>
    </form>
  );
}
