import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../../components/ui.js';
import { fullName } from '../person.js';
import { useUsers } from '../queries.js';
import '../styles.css';
import { useSettledSearch } from '../../../hooks.js';

/**
 * Finds one person by name or e-mail (GET /api/users, which everyone may read) and hands their id
 * to `onPick`: a search field, then a list of the first matches and a button that says `action`.
 */
export function PersonPicker({ label, action, busy, onPick }: { label: string; action: string; busy?: boolean; onPick: (userId: string) => void }) {
  const { t } = useTranslation('users');
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState('');
  const search = useSettledSearch(query);
  const users = useUsers(0, search);
  const people = users.data?.content ?? [];
  const picked = chosen && people.some((person) => person.id === chosen) ? chosen : (people[0]?.id ?? '');
  return (
    <div className="person-picker">
      <TextField
        label={t('picker.search', { label })}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t('searchPlaceholder')}
      />
      <SelectField label={label} value={picked} onChange={(event) => setChosen(event.target.value)} disabled={people.length === 0}>
        {people.length === 0 && <option value="">{t('picker.none')}</option>}
        {people.map((person) => (
          <option key={person.id} value={person.id}>
            {t('picker.option', { name: fullName(person), email: person.email })}
          </option>
        ))}
      </SelectField>
      <button type="button" className="button-secondary" disabled={!picked || busy} onClick={() => picked && onPick(picked)}>
        {action}
      </button>
    </div>
  );
}
