import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OfficePicker } from '../inventory/OfficePicker.js';
import { Alert, Dialog, SelectField } from '../../components/ui.js';
import { fieldErrorMessages, problemMessage, problemOf } from '../../lib/problems.js';
import { dateLocale } from '../../lib/locale.js';
import { formatDay } from '../../lib/time.js';
import { activeLanguage, translate } from '../../lib/translate.js';
import { useAllDepartments } from '../inventory/queries.js';
import { buildingsOf, ReservationsOnClosedDays, type OnExisting } from './ReservationsOnClosedDays.js';
import { PREVIEW_PAGE_SIZE, useHolidayCatalogue, useHolidayPreview, useImportHolidays, type HolidayImportInput } from './queries.js';

type Scope = 'EVERYWHERE' | 'DEPARTMENT' | 'BUILDING';

const errorOf = (failure: unknown) => {
  const problem = problemOf(failure);
  const fields = fieldErrorMessages(problem);
  return fields.length > 0 ? fields.join(' ') : problemMessage(problem, translate('closures:holidays.subject'));
};

/**
 * A country's name in the language in use: the service names countries in English, so other
 * languages take Intl's name of the ISO code (the service's name where Intl has none).
 */
function countryName(entry: { code: string; name: string }): string {
  if (activeLanguage().startsWith('en')) return entry.name;
  try {
    return new Intl.DisplayNames([dateLocale()], { type: 'region', fallback: 'none' }).of(entry.code.toUpperCase()) ?? entry.name;
  } catch {
    return entry.name;
  }
}

/**
 * Imports a country's public holidays of one or two years as closures (docs/policies.md#public-holidays):
 * choose where and whose holidays, see each holiday (new, already closed, past) and the reservations
 * on the new days, then cancel or keep them and import.
 */
export function HolidayImportDialog({ onClose, onImported }: { onClose: () => void; onImported: (message: string) => void }) {
  const { t } = useTranslation('closures');
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
    if (!country) return t('missing.country');
    const where =
      scope === 'DEPARTMENT'
        ? departmentId
          ? { departmentId }
          : t('missing.office')
        : scope === 'BUILDING'
          ? building
            ? { location: building.split('\u0000')[0]!, building: building.split('\u0000')[1]! }
            : t('missing.building')
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
              ? t('holidays.importedNone')
              : t('holidays.imported', { count: days, closureCount: done.closures.length, cancelledCount: done.cancelled, keptCount: done.kept }),
          );
        },
        onError: (failure) => setProblem(errorOf(failure)),
      },
    );
  };

  const result = preview.data;
  const fresh = result?.holidays.filter((holiday) => holiday.status === 'NEW') ?? [];
  return (
    <Dialog title={t('holidays.open')} onClose={onClose}>
      <form onSubmit={submit} noValidate className="holiday-import">
        <div className="field-row">
          <SelectField
            label={t('common:fields.where')}
            value={scope}
            onChange={(event) => {
              setScope(event.target.value as Scope);
              changed();
            }}
          >
            <option value="EVERYWHERE">{t('scope.EVERYWHERE')}</option>
            <option value="DEPARTMENT">{t('scope.DEPARTMENT')}</option>
            <option value="BUILDING">{t('scope.BUILDING')}</option>
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
              label={t('common:fields.building')}
              value={building}
              onChange={(event) => {
                setBuilding(event.target.value);
                changed();
              }}
            >
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
          <SelectField
            label={t('holidays.country')}
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
            <option value="">{catalogue.isPending ? t('holidays.loadingCountries') : t('holidays.chooseCountry')}</option>
            {countries.map((entry) => (
              <option key={entry.code} value={entry.code}>
                {countryName(entry)}
              </option>
            ))}
          </SelectField>
          {states.length > 0 && (
            <SelectField
              label={t('holidays.state')}
              value={state}
              onChange={(event) => {
                setState(event.target.value);
                setRegion('');
                changed();
              }}
            >
              <option value="">{t('holidays.wholeCountry')}</option>
              {states.map((entry) => (
                <option key={entry.code} value={entry.code}>
                  {entry.name}
                </option>
              ))}
            </SelectField>
          )}
          {regions.length > 0 && (
            <SelectField
              label={t('holidays.region')}
              value={region}
              onChange={(event) => {
                setRegion(event.target.value);
                changed();
              }}
            >
              <option value="">{t('holidays.wholeState')}</option>
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
              label={t('holidays.namesIn')}
              value={language}
              onChange={(event) => {
                setLanguage(event.target.value);
                changed();
              }}
            >
              <option value="">{t('holidays.countryLanguage', { code: chosen.languages[0] })}</option>
              {chosen.languages.slice(1).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </SelectField>
          )}
          <SelectField
            label={t('holidays.years')}
            value={years}
            onChange={(event) => {
              setYears(event.target.value);
              changed();
            }}
          >
            <option value={String(thisYear)}>{thisYear}</option>
            <option value={String(thisYear + 1)}>{thisYear + 1}</option>
            <option value={`${thisYear},${thisYear + 1}`}>{t('holidays.bothYears', { first: thisYear, second: thisYear + 1 })}</option>
          </SelectField>
        </div>
        <p className="muted holiday-attribution">{t('holidays.attribution')}</p>
        {problem && <Alert kind="error">{problem}</Alert>}
        <div className="dialog-actions">
          <button type="button" className="button-secondary" onClick={onClose}>
            {t('common:close')}
          </button>
          <button type="submit" className="button-primary" disabled={preview.isPending}>
            {t('holidays.preview')}
          </button>
        </div>
      </form>

      {previewed && result && (
        <section aria-labelledby="holiday-preview-heading" className="holiday-preview">
          <h3 id="holiday-preview-heading">{fresh.length === 0 ? t('holidays.nothing') : t('holidays.toClose', { count: fresh.length })}</h3>
          <ul className="holiday-list">
            {result.holidays.map((holiday) => (
              <li key={holiday.date} className={holiday.status === 'NEW' ? undefined : 'holiday-skipped'}>
                {t(`holidays.status.${holiday.status}`, { day: formatDay(holiday.date), name: holiday.name })}
              </li>
            ))}
          </ul>
          {result.reservations.totalElements > 0 && (
            <ReservationsOnClosedDays
              reservations={result.reservations}
              page={previewPage}
              onPage={(next) => runPreview(previewed, next)}
              pagerLabel={t('holidays.pages')}
              choiceName="holiday-on-existing"
              onExisting={onExisting}
              setOnExisting={setOnExisting}
            />
          )}
          {fresh.length > 0 && (
            <div className="dialog-actions">
              <button type="button" className="button-primary" onClick={confirm} disabled={importing.isPending}>
                {t('holidays.import', { count: fresh.length })}
              </button>
            </div>
          )}
        </section>
      )}
    </Dialog>
  );
}
