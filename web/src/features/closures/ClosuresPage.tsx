import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OfficePicker } from '../inventory/OfficePicker.js';
import { STALE_AFTER } from '../../api/query.js';
import { DeleteDialog } from '../../components/DeleteDialog.js';
import { Alert, EmptyState, Loaded, PageHeader, Pager, SelectField, TextField } from '../../components/ui.js';
import { useTitle } from '../../hooks.js';
import { departmentLabel } from '../../lib/labels.js';
import { fieldErrorMessages, problemMessage, problemOf } from '../../lib/problems.js';
import { formatDay } from '../../lib/time.js';
import { translate } from '../../lib/translate.js';
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

/** The body for the service, or a sentence saying what is missing (in the language in use). */
function inputOf(form: Form): ClosureInput | string {
  if (!form.reason.trim()) return translate('closures:missing.reason');
  if (!form.first) return translate('closures:missing.first');
  const where =
    form.scope === 'DEPARTMENT'
      ? form.departmentId
        ? { departmentId: form.departmentId }
        : translate('closures:missing.office')
      : form.scope === 'BUILDING'
        ? form.building
          ? { location: form.building.split('\u0000')[0]!, building: form.building.split('\u0000')[1]! }
          : translate('closures:missing.building')
        : {};
  if (typeof where === 'string') return where;
  const base = { scope: form.scope, reason: form.reason.trim(), ...where };
  if (form.rrule.trim()) return { ...base, rrule: form.rrule.trim(), startDate: form.first };
  const dates = datesOf(form.first, form.last);
  if (!dates) return translate('closures:missing.range', { count: MAX_RANGE_DAYS });
  return { ...base, dates };
}

const errorOf = (failure: unknown) => {
  const problem = problemOf(failure);
  const fields = fieldErrorMessages(problem);
  return fields.length > 0 ? fields.join(' ') : problemMessage(problem, translate('closures:subject'));
};

/**
 * Admins: the closures to come, and a new one: its days and the reservations on them first, then
 * cancel them or keep them (docs/policies.md#closures-and-holidays).
 */
export function ClosuresPage() {
  const { t } = useTranslation('closures');
  useTitle(t('title'));
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
            t('created', {
              dayCount: created.closure.dayCount,
              first: formatDay(created.closure.startDate),
              reason: created.closure.reason,
              cancelledCount: created.cancelled,
              keptCount: created.kept,
            }),
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
      <PageHeader title={t('title')}>
        <button type="button" className="button-secondary" onClick={() => setImporting(true)}>
          {t('holidays.open')}
        </button>
      </PageHeader>
      {notice && (
        <Alert kind="success" onDismiss={() => setNotice(undefined)}>
          {notice}
        </Alert>
      )}
      <form className="panel" onSubmit={submitPreview} noValidate aria-labelledby="new-closure-heading">
        <h2 id="new-closure-heading">{t('form.heading')}</h2>
        <TextField label={t('form.reason')} maxLength={200} required value={form.reason} onChange={(event) => set({ reason: event.target.value })} />
        <div className="field-row">
          <SelectField label={t('common:fields.where')} value={form.scope} onChange={(event) => set({ scope: event.target.value as Scope })}>
            <option value="EVERYWHERE">{t('scope.EVERYWHERE')}</option>
            <option value="DEPARTMENT">{t('scope.DEPARTMENT')}</option>
            <option value="BUILDING">{t('scope.BUILDING')}</option>
          </SelectField>
          {form.scope === 'DEPARTMENT' && <OfficePicker value={form.departmentId} onChange={(departmentId) => set({ departmentId })} />}
          {form.scope === 'BUILDING' && (
            <SelectField label={t('common:fields.building')} value={form.building} onChange={(event) => set({ building: event.target.value })}>
              <option value="">{t('chooseBuilding')}</option>
              {buildings.map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <div className="field-row">
          <TextField label={t('common:fields.firstDay')} type="date" required value={form.first} onChange={(event) => set({ first: event.target.value })} />
          <TextField
            label={t('common:fields.lastDay')}
            type="date"
            hint={t('form.lastHint')}
            value={form.last}
            disabled={form.rrule.trim() !== ''}
            onChange={(event) => set({ last: event.target.value })}
          />
        </div>
        <TextField
          label={t('form.rrule')}
          hint={t('form.rruleHint')}
          maxLength={500}
          value={form.rrule}
          onChange={(event) => set({ rrule: event.target.value })}
        />
        {problem && <Alert kind="error">{problem}</Alert>}
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={preview.isPending}>
            {t('form.preview')}
          </button>
        </div>
      </form>

      {previewed && result && (
        <section className="panel" aria-labelledby="preview-heading">
          <h2 id="preview-heading">
            {t('preview.heading', {
              dayCount: result.days.length,
              first: formatDay(result.days[0]!),
              last: formatDay(result.days[result.days.length - 1]!),
            })}
          </h2>
          {result.reservations.totalElements === 0 ? (
            <p>{t('preview.none')}</p>
          ) : (
            <ReservationsOnClosedDays
              reservations={result.reservations}
              page={previewPage}
              onPage={(next) => runPreview(previewed, next)}
              pagerLabel={t('preview.pages')}
              choiceName="on-existing"
              onExisting={onExisting}
              setOnExisting={setOnExisting}
            />
          )}
          <div className="form-actions">
            <button type="button" className="button-primary" onClick={confirm} disabled={create.isPending}>
              {t('preview.create')}
            </button>
          </div>
        </section>
      )}

      <section aria-labelledby="closures-heading">
        <h2 id="closures-heading">{t('list.heading')}</h2>
        <Loaded query={closures} label={t('list.loading')}>
          {(list) =>
            list.content.length === 0 ? (
              <EmptyState>{t('list.empty')}</EmptyState>
            ) : (
              <>
                <ul className="closure-list">
                  {list.content.map((closure) => {
                    const department = (departments.data ?? []).find((candidate) => candidate.id === closure.departmentId);
                    const where =
                      closure.scope === 'EVERYWHERE'
                        ? t('scope.EVERYWHERE')
                        : closure.scope === 'BUILDING'
                          ? `${closure.location} · ${closure.building}`
                          : department
                            ? departmentLabel(department)
                            : t('scope.DEPARTMENT');
                    const when = t('list.when', { dayCount: closure.dayCount, first: formatDay(closure.startDate), last: formatDay(closure.lastDate) });
                    return (
                      <li key={closure.id}>
                        <div className="closure-what">
                          <strong>{closure.reason}</strong>
                          <br />
                          {closure.rrule ? t('list.itemRepeats', { where, when, rrule: closure.rrule }) : t('list.item', { where, when })}
                        </div>
                        <button
                          type="button"
                          className="button-secondary button-small"
                          aria-label={t('list.deleteLabel', { reason: closure.reason })}
                          onClick={() => setDeleting({ id: closure.id, reason: closure.reason })}
                        >
                          {t('common:delete')}
                        </button>
                      </li>
                    );
                  })}
                </ul>
                <Pager page={list.number} totalPages={list.totalPages} onPage={setPage} label={t('list.pages')} />
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
          title={t('delete.title')}
          question={t('delete.question', { reason: deleting.reason })}
          subject={t('subject')}
          remove={() => deleteClosure(deleting.id)}
          invalidates={STALE_AFTER.closures}
          onDeleted={() => {
            setNotice(t('delete.done', { reason: deleting.reason }));
            setDeleting(undefined);
          }}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </div>
  );
}
