import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, SelectField, SubmitButton, TextField } from '../../../components/ui.js';
import { deskTypeChoices } from '../../../lib/labels.js';
import { errorText } from '../../../lib/problems.js';
import { useAddDesks, useImportDesks } from '../queries.js';
import '../styles.css';

/** As the service: at most this many desks at once, and a CSV file of at most 64 KB (docs/behaviour.md#adding-many-desks-at-once). */
const MAX_AT_ONCE = 500;
const MAX_FILE_BYTES = 64 * 1024;

/** "D-1", "D-2", …: `count` names from a prefix and a first number. */
export function patternNames(prefix: string, first: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}${first + index}`);
}

/**
 * Adding several desks to a room at once: numbered from a pattern, or from a CSV file (header
 * `name,type`). All or none: the service names every refused line.
 */
export function ManyDesks({ departmentId, roomId }: { departmentId: string; roomId: string }) {
  const { t } = useTranslation('inventory');
  const [notice, setNotice] = useState<string>();
  const [prefix, setPrefix] = useState(() => t('many.defaultPrefix'));
  const [first, setFirst] = useState('1');
  const [count, setCount] = useState('10');
  const [type, setType] = useState<'FLEX' | 'FIXED'>('FLEX');
  const [fileProblem, setFileProblem] = useState<string>();
  const done = (added: { desks: unknown[] }) => setNotice(t('many.added', { count: added.desks.length }));
  const adding = useAddDesks(done);
  const importing = useImportDesks(done);

  const firstNumber = Number(first);
  const howMany = Number(count);
  const patternProblem =
    !Number.isInteger(howMany) || howMany < 1 || howMany > MAX_AT_ONCE
      ? t('many.countProblem', { limit: MAX_AT_ONCE })
      : !Number.isInteger(firstNumber) || firstNumber < 0
        ? t('many.firstProblem')
        : undefined;
  const names = patternProblem ? [] : patternNames(prefix, firstNumber, howMany);

  const addPattern = (event: FormEvent) => {
    event.preventDefault();
    setNotice(undefined);
    importing.reset();
    if (patternProblem) return;
    adding.mutate({ params: { path: { departmentId, roomId } }, body: { desks: names.map((name) => ({ name, type })) } });
  };

  const importFile = async (file: File | undefined) => {
    setNotice(undefined);
    setFileProblem(undefined);
    adding.reset();
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileProblem(t('many.fileTooLarge', { limit: MAX_FILE_BYTES / 1024 }));
      return;
    }
    importing.mutate({ departmentId, roomId, file: await file.text() });
  };

  const failure = fileProblem ?? errorText(adding.error ?? importing.error, t('room.subject'));
  return (
    <section className="inline-form many-desks" aria-labelledby="many-desks-heading">
      <h3 id="many-desks-heading">{t('many.heading')}</h3>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      <form onSubmit={addPattern} noValidate aria-label={t('many.formLabel')} className="stack">
        <div className="field-row field-row-end">
          <TextField label={t('many.prefix')} value={prefix} maxLength={190} onChange={(event) => setPrefix(event.target.value)} />
          <TextField label={t('many.first')} inputMode="numeric" value={first} onChange={(event) => setFirst(event.target.value)} />
          <TextField label={t('many.count')} inputMode="numeric" value={count} onChange={(event) => setCount(event.target.value)} error={patternProblem} />
          <SelectField label={t('many.type')} value={type} onChange={(event) => setType(event.target.value as 'FLEX' | 'FIXED')}>
            {deskTypeChoices().map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
          <SubmitButton busy={adding.isPending} busyLabel={t('common:adding')}>
            {names.length > 0 ? t('many.submitCount', { count: names.length }) : t('many.submit')}
          </SubmitButton>
        </div>
        {names.length > 0 && (
          <p className="muted" aria-live="polite">
            {t('many.names', { names: names.length > 3 ? `${names[0]}, ${names[1]}, … ${names.at(-1)}` : names.join(', ') })}
          </p>
        )}
      </form>
      <TextField
        label={t('many.import')}
        type="file"
        accept=".csv,text/csv"
        disabled={importing.isPending}
        hint={t('many.importHint', { count: MAX_AT_ONCE })}
        onChange={(event) => {
          void importFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
    </section>
  );
}
