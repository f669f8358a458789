import Holidays from 'date-holidays';
import { Temporal } from 'temporal-polyfill';
import { invalid } from '../../shared/errors.js';

/**
 * Public holidays for the closures' import (docs/policies.md#public-holidays), from the npm package
 * date-holidays (code ISC, holiday data CC BY 3.0: the attribution is shown wherever the import is).
 * Only holidays of type `public` are offered. A holiday is a calendar date of its country; the
 * closure made of it closes that local date in each office's own zone, like any closure.
 */

/** Shown next to the import (API description, web dialog, docs): the data's licence asks for it. */
export const HOLIDAY_ATTRIBUTION = 'Holiday data: date-holidays (CC BY 3.0)';
/** Years one preview or import may span. */
export const MAX_HOLIDAY_YEARS = 2;
/** Years an import may reach, counted from the current one. */
export const HOLIDAY_YEAR_HORIZON = 10;

export interface HolidayRegion {
  code: string;
  name: string;
}
export interface HolidayState extends HolidayRegion {
  regions: HolidayRegion[];
}
export interface HolidayCountry extends HolidayRegion {
  languages: string[];
  states: HolidayState[];
}

export interface PublicHoliday {
  /** Local date YYYY-MM-DD. */
  date: string;
  /** The holiday's name; several holidays on one date are joined with " / ". */
  name: string;
}

const byCode = (entries: Record<string, string> | undefined): HolidayRegion[] =>
  Object.entries(entries ?? {})
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.code.localeCompare(b.code));

let catalogue: HolidayCountry[] | undefined;

/** Every country with its states, their regions and its languages (English names), read once (about 0.1 s). */
export function holidayCatalogue(): HolidayCountry[] {
  if (catalogue) return catalogue;
  const all = new Holidays();
  catalogue = byCode(all.getCountries('en')).map((country) => {
    const one = new Holidays(country.code);
    return {
      ...country,
      languages: one.getLanguages(),
      states: byCode(all.getStates(country.code, 'en')).map((state) => ({ ...state, regions: byCode(all.getRegions(country.code, state.code, 'en')) })),
    };
  });
  return catalogue;
}

export interface HolidayQuery {
  country: string;
  state?: string;
  region?: string;
  language?: string;
  years: number[];
}

/**
 * The public holidays of a country (state, region) in the given years, by date; 400 naming the field
 * for an unknown country, state, region or language, or years out of bounds (`thisYear` is the current
 * year in the offices concerned).
 */
export function publicHolidays(query: HolidayQuery, thisYear: number): PublicHoliday[] {
  const country = holidayCatalogue().find((entry) => entry.code === query.country.toUpperCase());
  if (!country) throw invalid('country', 'no holidays are known for this country code');
  const state = query.state === undefined ? undefined : country.states.find((entry) => entry.code === query.state!.toUpperCase());
  if (query.state !== undefined && !state) throw invalid('state', `no such state in ${country.code}`);
  if (query.region !== undefined) {
    if (!state) throw invalid('region', 'a region needs its state');
    if (!state.regions.some((entry) => entry.code === query.region!.toUpperCase())) throw invalid('region', `no such region in ${country.code}-${state.code}`);
  }
  const language = query.language?.toLowerCase() ?? country.languages[0] ?? 'en';
  if (!country.languages.includes(language)) throw invalid('language', `${country.code} names its holidays in ${country.languages.join(', ')}`);
  for (const [i, year] of query.years.entries()) {
    if (year < thisYear || year > thisYear + HOLIDAY_YEAR_HORIZON)
      throw invalid(`years.${i}`, `must lie from ${thisYear} to ${thisYear + HOLIDAY_YEAR_HORIZON}`);
  }
  const years = [...new Set(query.years)].sort((a, b) => a - b);
  if (years.length > MAX_HOLIDAY_YEARS) throw invalid('years', `at most ${MAX_HOLIDAY_YEARS} years at once`);
  const source = new Holidays(country.code, state?.code ?? '', query.region?.toUpperCase() ?? '', { types: ['public'], languages: [language] });
  const names = new Map<string, string[]>();
  for (const year of years) {
    for (const holiday of source.getHolidays(year, language)) {
      if (holiday.type !== 'public') continue;
      const date = Temporal.PlainDate.from(holiday.date.slice(0, 10)).toString();
      const list = names.get(date) ?? [];
      if (!list.includes(holiday.name)) list.push(holiday.name);
      names.set(date, list);
    }
  }
  return [...names.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, list]) => ({ date, name: list.join(' / ').slice(0, 200) }));
}
