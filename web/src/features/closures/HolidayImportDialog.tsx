import { useState } from 'react';
import { OfficePicker } from '../inventory/OfficePicker.js';
import { Alert, Dialog, SelectField } from '../../components/ui.js';
import { fieldErrorMessages, problemMessage, problemOf } from '../../lib/problems.js';
import { formatDay } from '../../lib/time.js';
import { useAllDepartments } from '../inventory/queries.js';
import { buildingsOf, ReservationsOnClosedDays, type OnExisting } from './ReservationsOnClosedDays.js';
import { PREVIEW_PAGE_SIZE, useHolidayCatalogue, useHolidayPreview, useImportHolidays, type HolidayImportInput } from './queries.js';

type Scope = 'EVERYWHERE' | 'DEPARTMENT' | 'BUILDING';

/** The data's licence (CC BY 3.0) asks for this next to the import (docs/policies.md#public-holidays). */
export const HOLIDAY_ATTRIBUTION = 'Holiday data: date-holidays (CC BY 3.0)';

const STATUS_TEXT = { NEW: 'will be closed', CLOSED: 'already closed', PAST: 'past' } as const;

const errorOf = (failure: unknown) => {
  const problem = problemOf(failure);
  const fields = fieldErrorMessages(problem);
  return fields.length > 0 ? fields.join(' ') : problemMessage(problem, 'This import');
};

/**
 * Imports a country's public holidays of one or two years as closures (docs/policies.md#public-holidays):
 * choose where and whose holidays, see each holiday (new, already closed, past) and the reservations
 * on the new days, then cancel or keep them and import.
 */
export function HolidayImportDialog({ onClose, onImported }: { onClose: () => void; onImported: (message: string) => void }) {
  const departments = useAllDepartments();
  const catalogue = useHolidayCatalogue(true);
  const preview = useHolidayPreview();
  const importing = useImportHolidays();
  const thisYear = new Date().getFullYear();
  const [scope, setScope] = useState<Scope>('EVERYWHERE');
  const [departmentId, setDepartmentId] = useState('');
  const [building, setBuilding] = useState('');
  const [country, setCountry] = useState('');
  const [state, setState] = useState('');
  const [region, setRegion] = useState('');
  const [language, setLanguage] = useState('');
  const [years, setYears] = useState(String(thisYear));
  const [onExisting, setOnExisting] = useState<OnExisting>('cancel');
  const [previewed, setPreviewed] = useState<HolidayImportInput>();
  const [previewPage, setPreviewPage] = useState(0);
  const [problem, setProblem] = useState<string>();

  const buildings = buildingsOf(departments.data ?? []);
  const countries = catalogue.data?.countries ?? [];
  const chosen = countries.find((entry) => entry.code === country);
  const states = chosen?.states ?? [];
  const regions = states.find((entry) => entry.code === state)?.regions ?? [];

  /** Any change asks for a new preview. */
  const changed = () => {
    setPreviewed(undefined);
    setProblem(undefined);
    preview.reset();
  };

  const inputOf = (): HolidayImportInput | string => {
    if (!country) return 'Choose the country.';
    const where =
      scope === 'DEPARTMENT'
        ? departmentId
          ? { departmentId }
          : 'Choose the office.'
        : scope === 'BUILDING'
          ? building
            ? { location: building.split('\u0000')[0]!, building: building.split('\u0000')[1]! }
            : 'Choose the building.'
          : {};
    if (typeof where === 'string') return where;
    return {
      scope,
      ...where,
      country,
      ...(state ? { state } : {}),
      ...(region ? { region } : {}),
      ...(language ? { language } : {}),
      years: years.split(',').map(Number),
    };
  };

  const runPreview = (input: HolidayImportInput, pageNumber: number) => {
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

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const input = inputOf();
    if (typeof input === 'string') setProblem(input);
    else runPreview(input, 0);
  };

  const confirm = () => {
    if (!previewed) return;
    importing.mutate(
      { body: { ...previewed, onExisting } },
      {
        onSuccess: (done) => {
          const days = done.holidays.filter((holiday) => holiday.status === 'NEW').length;
          onImported(
            days === 0
              ? 'No holiday was imported: every one is already closed or past.'
              : `Imported ${days} ${days === 1 ? 'holiday' : 'holidays'} as ${done.closures.length} ${done.closures.length === 1 ? 'closure' : 'closures'}. ` +
                  `${done.cancelled} ${done.cancelled === 1 ? 'reservation' : 'reservations'} cancelled, ${done.kept} kept.`,
          );
        },
        onError: (failure) => setProblem(errorOf(failure)),
      },
    );
  };

  const result = preview.data;
  const fresh = result?.holidays.filter((holiday) => holiday.status === 'NEW') ?? [];
  return (
    <Dialog title="Import public holidays" onClose={onClose}>
      <form onSubmit={submit} noValidate className="holiday-import">
        <div className="field-row">
          <SelectField
            label="Where"
            value={scope}
            onChange={(event) => {
              setScope(event.target.value as Scope);
              changed();
            }}
          >
            <option value="EVERYWHERE">Every office</option>
            <option value="DEPARTMENT">One office</option>
            <option value="BUILDING">One building</option>
          </SelectField>
          {scope === 'DEPARTMENT' && (
            <OfficePicker
              value={departmentId}
              onChange={(id) => {
                setDepartmentId(id);
                changed();
              }}
            />
          )}
          {scope === 'BUILDING' && (
            <SelectField
              label="Building"
              value={building}
              onChange={(event) => {
                setBuilding(event.target.value);
                changed();
              }}
            >
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
          <SelectField
            label="Country"
            value={country}
            disabled={catalogue.isPending}
            onChange={(event) => {
              setCountry(event.target.value);
              setState('');
              setRegion('');
              setLanguage('');
              changed();
            }}
          >
            <option value="">{catalogue.isPending ? 'Loading countries…' : 'Choose a country'}</option>
            {countries.map((entry) => (
              <option key={entry.code} value={entry.code}>
                {entry.name}
              </option>
            ))}
          </SelectField>
          {states.length > 0 && (
            <SelectField
              label="State or province (optional)"
              value={state}
              onChange={(event) => {
                setState(event.target.value);
                setRegion('');
                changed();
              }}
            >
              <option value="">The whole country</option>
              {states.map((entry) => (
                <option key={entry.code} value={entry.code}>
                  {entry.name}
                </option>
              ))}
            </SelectField>
          )}
          {regions.length > 0 && (
            <SelectField
              label="Region (optional)"
              value={region}
              onChange={(event) => {
                setRegion(event.target.value);
                changed();
              }}
            >
              <option value="">The whole state</option>
              {regions.map((entry) => (
                <option key={entry.code} value={entry.code}>
                  {entry.name}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <div className="field-row">
          {chosen && chosen.languages.length > 1 && (
            <SelectField
              label="Names in"
              value={language}
              onChange={(event) => {
                setLanguage(event.target.value);
                changed();
              }}
            >
              <option value="">The country’s language ({chosen.languages[0]})</option>
              {chosen.languages.slice(1).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </SelectField>
          )}
          <SelectField
            label="Years"
            value={years}
            onChange={(event) => {
              setYears(event.target.value);
              changed();
            }}
          >
            <option value={String(thisYear)}>{thisYear}</option>
            <option value={String(thisYear + 1)}>{thisYear + 1}</option>
            <option value={`${thisYear},${thisYear + 1}`}>
              {thisYear} and {thisYear + 1}
            </option>
          </SelectField>
        </div>
        <p className="muted holiday-attribution">{HOLIDAY_ATTRIBUTION}</p>
        {problem && <Alert kind="error">{problem}</Alert>}
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="button-primary" disabled={preview.isPending}>
            Show the holidays
          </button>
        </div>
      </form>

      {previewed && result && (
        <section aria-labelledby="holiday-preview-heading" className="holiday-preview">
          <h3 id="holiday-preview-heading">
            {fresh.length === 0
              ? 'Nothing to import: every holiday is already closed or past'
              : `${fresh.length} ${fresh.length === 1 ? 'holiday' : 'holidays'} to close`}
          </h3>
          <ul className="holiday-list">
            {result.holidays.map((holiday) => (
              <li key={holiday.date} className={holiday.status === 'NEW' ? undefined : 'holiday-skipped'}>
                {formatDay(holiday.date)}: {holiday.name} ({STATUS_TEXT[holiday.status]})
              </li>
            ))}
          </ul>
          {result.reservations.totalElements > 0 && (
            <ReservationsOnClosedDays
              reservations={result.reservations}
              page={previewPage}
              onPage={(next) => runPreview(previewed, next)}
              pagerLabel="Pages of reservations on the holidays"
              choiceName="holiday-on-existing"
              onExisting={onExisting}
              setOnExisting={setOnExisting}
            />
          )}
          {fresh.length > 0 && (
            <div className="dialog-actions">
              <button type="button" className="button-primary" onClick={confirm} disabled={importing.isPending}>
                Import {fresh.length} {fresh.length === 1 ? 'holiday' : 'holidays'}
              </button>
            </div>
          )}
        </section>
      )}
    </Dialog>
  );
}
