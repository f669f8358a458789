import { useTranslation } from 'react-i18next';
import { SelectField } from '../../components/ui.js';
import { departmentLabel } from '../../lib/labels.js';
import { useAllDepartments } from './queries.js';

/** A choice of one office (a department), by its label: the people pages, a closure, a holiday import, an area. */
export function OfficePicker({
  value,
  onChange,
  label,
  required,
}: {
  value: string;
  onChange: (departmentId: string) => void;
  label?: string;
  required?: boolean;
}) {
  const { t } = useTranslation('labels');
  const departments = useAllDepartments();
  return (
    <SelectField label={label ?? t('common:fields.office')} required={required} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{t('office.choose')}</option>
      {(departments.data ?? []).map((department) => (
        <option key={department.id} value={department.id}>
          {departmentLabel(department)}
        </option>
      ))}
    </SelectField>
  );
}

/** The first office, once the list is there: a page about one office starts with it chosen. */
export const useFirstOffice = () => useAllDepartments().data?.[0]?.id ?? '';
