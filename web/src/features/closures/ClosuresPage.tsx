import { useState } from 'react';
import { OfficePicker } from '../inventory/OfficePicker.js';
import { STALE_AFTER } from '../../api/query.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, EmptyState, Loaded, PageHeader, Pager, SelectField, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { departmentLabel } from '../../lib/labels.js';
import { fieldErrorMessages, problemMessage, problemOf } from '../../lib/problems.js';
import { formatDay } from '../../lib/time.js';
import { useAllDepartments } from '../inventory/queries.js';
import { HolidayImportDialog } from './HolidayImportDialog.js';
import { deleteClosure, PREVIEW_PAGE_SIZE, useClosurePreview, useClosures, useCreateClosure, type ClosureInput } from './queries.js';
import { buildingsOf, ReservationsOnClosedDays, type OnExisting } from './ReservationsOnClosedDays.js';
import './styles.css';

type Scope = 'EVERYWHERE' | 'DEPARTMENT' | 'BUILDING';
/** At most this many one-off days from a first and last day (the service's limit of dates). */
const MAX_RANGE_DAYS = 100;
const DAY_MS = 86_400_000;

interface Form {
  reason: string;
  scope: Scope;
  departmentId: string;
  building: string;
  first: string;
  last: string;
  rrule: string;
}

const EMPTY: Form = { reason: '', scope: 'EVERYWHERE', departmentId: '', building: '', first: '', last: '', rrule: '' };

/** Every date from `first` to `last` (inclusive), or undefined when the range is not valid. */
function datesOf(first: string, last: string): string[] | undefined {
  const from = Date.parse(`${first}T00:00:00Z`);
  const to = Date.parse(`${last || first}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to) || to < from || (to - from) / DAY_MS >= MAX_RANGE_DAYS) return undefined;
  const dates: string[] = [];
  for (let day = from; day <= to; day += DAY_MS) dates.push(new Date(day).toISOString().slice(0, 10));
  return dates;
}

/** The body for the service, or a sentence saying what is missing. */
function inputOf(form: Form): ClosureInput | string {
  if (!form.reason.trim()) return 'Give a reason.';
  if (!form.first) return 'Choose the first closed day.';
  const where =
    form.scope === 'DEPARTMENT'
      ? form.departmentId
        ? { departmentId: form.departmentId }
        : 'Choose the office.'
      : form.scope === 'BUILDING'
        ? form.building
          ? { location: form.building.split('\u0000')[0]!, building: form.building.split('\u0000')[1]! }
          : 'Choose the building.'
        : {};
  if (typeof where === 'string') return where;
  const base = { scope: form.scope, reason: form.reason.trim(), ...where };
  if (form.rrule.trim()) return { ...base, rrule: form.rrule.trim(), startDate: form.first };
  const dates = datesOf(form.first, form.last);
  if (!dates) return `The last day must be on or after the first, at most ${MAX_RANGE_DAYS} days in all.`;
  return { ...base, dates };
}

const errorOf = (failure: unknown) => {
  const problem = problemOf(failure);
  const fields = fieldErrorMessages(problem);
  return fields.length > 0 ? fields.join(' ') : problemMessage(problem, 'This closure');
};

/**
 * Admins: the closures to come, and a new one: its days and the reservations on them first, then
 * cancel them or keep them (docs/policies.md#closures-and-holidays).
 */
export function ClosuresPage() {
  useTitle('Closures');
  const departments = useAllDepartments();
  const [page, setPage] = useState(0);
  const closures = useClosures(page);
  const [form, setForm] = useState<Form>(EMPTY);
  const [previewPage, setPreviewPage] = useState(0);
  const [previewed, setPreviewed] = useState<ClosureInput>();
  const [onExisting, setOnExisting] = useState<OnExisting>('cancel');
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [deleting, setDeleting] = useState<{ id: string; reason: string }>();
  const [importing, setImporting] = useState(false);
  const preview = useClosurePreview();
  const create = useCreateClosure(() => undefined);

  const buildings = buildingsOf(departments.data ?? []);
  const set = (change: Partial<Form>) => {
    setForm((current) => ({ ...current, ...change }));
    // A changed closure must be previewed again before it is created.
    setPreviewed(undefined);
    preview.reset();
  };

  const runPreview = (input: ClosureInput, pageNumber: number) => {
    setProblem(undefined);
    preview.mutate(
      { body: input, params: { query: { page: pageNumber, size: PREVIEW_PAGE_SIZE } } },
      {
        onSuccess: () => {
          setPreviewed(input);
          setPreviewPage(pageNumber);
        },
        onError: (failure) => setProblem(errorOf(failure)),
      },
    );
  };

  const submitPreview = (event: React.FormEvent) => {
    event.preventDefault();
    setNotice(undefined);
    const input = inputOf(form);
    if (typeof input === 'string') setProblem(input);
    else runPreview(input, 0);
  };

  const confirm = () => {
    if (!previewed) return;
    create.mutate(
      { body: { ...previewed, onExisting } },
      {
        onSuccess: (created) => {
          setNotice(
            `Closed ${created.closure.dayCount === 1 ? formatDay(created.closure.startDate) : `${created.closure.dayCount} days from ${formatDay(created.closure.startDate)}`}: ${created.closure.reason}. ` +
              `${created.cancelled} ${created.cancelled === 1 ? 'reservation' : 'reservations'} cancelled, ${created.kept} kept.`,
          );
          setForm(EMPTY);
          setPreviewed(undefined);
          preview.reset();
        },
        onError: (failure) => setProblem(errorOf(failure)),
      },
    );
  };

  const result = preview.data;
  return (
    <div className="page">
      <PageHeader title="Closures">
        <button type="button" className="button-secondary" onClick={() => setImporting(true)}>
          Import public holidays
        </button>
      </PageHeader>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <form className="panel" onSubmit={submitPreview} noValidate aria-labelledby="new-closure-heading">
        <h2 id="new-closure-heading">New closure</h2>
        <TextField label="Reason" maxLength={200} required value={form.reason} onChange={(event) => set({ reason: event.target.value })} />
        <div className="field-row">
          <SelectField label="Where" value={form.scope} onChange={(event) => set({ scope: event.target.value as Scope })}>
            <option value="EVERYWHERE">Every office</option>
            <option value="DEPARTMENT">One office</option>
            <option value="BUILDING">One building</option>
          </SelectField>
          {form.scope === 'DEPARTMENT' && <OfficePicker value={form.departmentId} onChange={(departmentId) => set({ departmentId })} />}
          {form.scope === 'BUILDING' && (
            <SelectField label="Building" value={form.building} onChange={(event) => set({ building: event.target.value })}>
              <option value="">Choose a building</option>
              {buildings.map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <div className="field-row">
          <TextField label="First day" type="date" required value={form.first} onChange={(event) => set({ first: event.target.value })} />
          <TextField
            label="Last day"
            type="date"
            hint="Leave empty for one day."
            value={form.last}
            disabled={form.rrule.trim() !== ''}
            onChange={(event) => set({ last: event.target.value })}
          />
        </div>
        <TextField
          label="Repeats (RRULE, optional)"
          hint="From the first day, with COUNT or UNTIL, e.g. FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25;COUNT=5"
          maxLength={500}
          value={form.rrule}
          onChange={(event) => set({ rrule: event.target.value })}
        />
        {problem && <Alert kind="error">{problem}</Alert>}
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={preview.isPending}>
            Show the days and bookings
          </button>
        </div>
      </form>

      {previewed && result && (
        <section className="panel" aria-labelledby="preview-heading">
          <h2 id="preview-heading">
            {result.days.length === 1
              ? `Closes ${formatDay(result.days[0]!)}`
              : `Closes ${result.days.length} days, ${formatDay(result.days[0]!)} to ${formatDay(result.days[result.days.length - 1]!)}`}
          </h2>
          {result.reservations.totalElements === 0 ? (
            <p>No reservation is booked on these days.</p>
          ) : (
            <ReservationsOnClosedDays
              reservations={result.reservations}
              page={previewPage}
              onPage={(next) => runPreview(previewed, next)}
              pagerLabel="Pages of affected reservations"
              choiceName="on-existing"
              onExisting={onExisting}
              setOnExisting={setOnExisting}
            />
          )}
          <div className="form-actions">
            <button type="button" className="button-primary" onClick={confirm} disabled={create.isPending}>
              Create the closure
            </button>
          </div>
        </section>
      )}

      <section aria-labelledby="closures-heading">
        <h2 id="closures-heading">Closures to come</h2>
        <Loaded query={closures} label="Loading closures…">
          {(list) =>
            list.content.length === 0 ? (
              <EmptyState>No closure lies ahead.</EmptyState>
            ) : (
              <>
                <ul className="closure-list">
                  {list.content.map((closure) => {
                    const department = (departments.data ?? []).find((candidate) => candidate.id === closure.departmentId);
                    const where =
                      closure.scope === 'EVERYWHERE'
                        ? 'Every office'
                        : closure.scope === 'BUILDING'
                          ? `${closure.location} · ${closure.building}`
                          : department
                            ? departmentLabel(department)
                            : 'One office';
                    const when =
                      closure.dayCount === 1
                        ? formatDay(closure.startDate)
                        : `${closure.dayCount} days, ${formatDay(closure.startDate)} to ${formatDay(closure.lastDate)}`;
                    return (
                      <li key={closure.id}>
                        <div className="closure-what">
                          <strong>{closure.reason}</strong>
                          <br />
                          {where}; {when}
                          {closure.rrule ? ` (repeats: ${closure.rrule})` : ''}
                        </div>
                        <button
                          type="button"
                          className="button-secondary button-small"
                          aria-label={`Delete the closure ${closure.reason}`}
                          onClick={() => setDeleting({ id: closure.id, reason: closure.reason })}
                        >
                          Delete
                        </button>
                      </li>
                    );
                  })}
                </ul>
                <Pager page={list.number} totalPages={list.totalPages} onPage={setPage} label="Closure pages" />
              </>
            )
          }
        </Loaded>
      </section>
      {importing && (
        <HolidayImportDialog
          onClose={() => setImporting(false)}
          onImported={(message) => {
            setNotice(message);
            setImporting(false);
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          title="Delete this closure?"
          question={`“${deleting.reason}” will be deleted: its days can be booked again. Reservations it cancelled stay cancelled.`}
          subject="This closure"
          remove={() => deleteClosure(deleting.id)}
          invalidates={STALE_AFTER.closures}
          onDeleted={() => {
            setNotice(`“${deleting.reason}” has been deleted.`);
            setDeleting(undefined);
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}
