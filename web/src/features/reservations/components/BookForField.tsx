import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookablePerson } from '../../../api/types.js';
import { SelectField, TextField } from '../../../components/ui.js';
import { useBookablePeople } from '../queries.js';
import '../styles.css';
import { useSettledSearch } from '../../../hooks.js';

/**
 * "Book for…" (docs/policies.md#booking-for-someone-else): whom a booking is for, the caller or one
 * of the people they may book for (admins: anyone; team managers: their teams' members; delegates:
 * the people who named them). Shows nothing to someone who may book only for themselves.
 */
export function BookForField({ value, onChange }: { value: BookablePerson | undefined; onChange: (person: BookablePerson | undefined) => void }) {
  const { t } = useTranslation('booking');
  const [query, setQuery] = useState('');
  const search = useSettledSearch(query);
  const people = useBookablePeople(search);
  const found = people.data ?? [];
  if (!search && !value && found.length === 0) return null;
  // The chosen person stays a choice even when a new search no longer lists them.
  const options = value && !found.some((person) => person.id === value.id) ? [value, ...found] : found;
  return (
    <div className="book-for">
      <TextField
        label={t('bookFor.find')}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t('bookFor.placeholder')}
      />
      <SelectField
        label={t('bookFor.label')}
        value={value?.id ?? ''}
        onChange={(event) => onChange(options.find((person) => person.id === event.target.value))}
      >
        <option value="">{t('bookFor.myself')}</option>
        {options.map((person) => (
          <option key={person.id} value={person.id}>
            {person.firstName} {person.lastName} ({person.email})
          </option>
        ))}
      </SelectField>
    </div>
  );
}
