import { SelectField } from '../../components/ui.js';
import { departmentLabel } from '../../lib/labels.js';
import { useAllDepartments } from '../inventory/queries.js';

/** The office (a department) a people page is about. */
export function OfficePicker({ value, onChange, label = 'Office' }: { value: string; onChange: (departmentId: string) => void; label?: string }) {
  const departments = useAllDepartments();
  return (
    <SelectField label={label} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">Choose an office</option>
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
