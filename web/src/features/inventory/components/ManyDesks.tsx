import { useState, type FormEvent } from 'react';
import { Alert, SelectField, SubmitButton, TextField } from '../../../components/ui.js';
import { DESK_TYPE_CHOICES } from '../../../lib/labels.js';
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
  const [notice, setNotice] = useState<string>();
  const [prefix, setPrefix] = useState('Desk ');
  const [first, setFirst] = useState('1');
  const [count, setCount] = useState('10');
  const [type, setType] = useState<'FLEX' | 'FIXED'>('FLEX');
  const [fileProblem, setFileProblem] = useState<string>();
  const done = (added: { desks: unknown[] }) => setNotice(`${added.desks.length} ${added.desks.length === 1 ? 'desk has' : 'desks have'} been added.`);
  const adding = useAddDesks(done);
  const importing = useImportDesks(done);

  const firstNumber = Number(first);
  const howMany = Number(count);
  const patternProblem =
    !Number.isInteger(howMany) || howMany < 1 || howMany > MAX_AT_ONCE
      ? `Number of desks: from 1 to ${MAX_AT_ONCE}.`
      : !Number.isInteger(firstNumber) || firstNumber < 0
        ? 'First number: a whole number from 0.'
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
      setFileProblem(`The file is larger than ${MAX_FILE_BYTES / 1024} KB; split it into smaller ones.`);
      return;
    }
    importing.mutate({ departmentId, roomId, file: await file.text() });
  };

  const failure = fileProblem ?? errorText(adding.error ?? importing.error, 'This room');
  return (
    <section className="inline-form many-desks" aria-labelledby="many-desks-heading">
      <h3 id="many-desks-heading">Add several desks</h3>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      {failure && <Alert kind="error">{failure}</Alert>}
      <form onSubmit={addPattern} noValidate aria-label="Add numbered desks" className="stack">
        <div className="field-row field-row-end">
          <TextField label="Name before the number" value={prefix} maxLength={190} onChange={(event) => setPrefix(event.target.value)} />
          <TextField label="First number" inputMode="numeric" value={first} onChange={(event) => setFirst(event.target.value)} />
          <TextField label="Number of desks" inputMode="numeric" value={count} onChange={(event) => setCount(event.target.value)} error={patternProblem} />
          <SelectField label="Type of these desks" value={type} onChange={(event) => setType(event.target.value as 'FLEX' | 'FIXED')}>
            {DESK_TYPE_CHOICES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
          <SubmitButton busy={adding.isPending} busyLabel="Adding…">
            {names.length > 0 ? `Add ${names.length} desks` : 'Add the desks'}
          </SubmitButton>
        </div>
        {names.length > 0 && (
          <p className="muted" aria-live="polite">
            Names: {names.length > 3 ? `${names[0]}, ${names[1]}, … ${names.at(-1)}` : names.join(', ')}
          </p>
        )}
      </form>
      <TextField
        label="Or import a CSV file"
        type="file"
        accept=".csv,text/csv"
        disabled={importing.isPending}
        hint={`A header line "name,type", then one desk per line (type FLEX or FIXED; empty means FLEX). At most ${MAX_AT_ONCE} desks; all or none.`}
        onChange={(event) => {
          void importFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
    </section>
  );
}
