import { describe, expect, it } from 'vitest';
import {
  areaRefusal,
  countedRefusal,
  evaluate,
  periodOf,
  rulesInForce,
  staticRefusal,
  type Area,
  type Held,
  type Person,
  type Place,
  type Rule,
} from '../../../src/modules/policies/policies.rules.js';

/** The rule model of docs/policies.md as pure functions: precedence (#precedence) and each limit's evaluation. */

const place: Place = { deskId: 'desk', deskType: 'FLEX', roomId: 'room', departmentId: 'dept', areaIds: ['area'], zone: 'Europe/Berlin' };
const person = (teams: [string, 'MEMBER' | 'MANAGER'][] = [], admin = false): Person => ({ id: 'p', admin, teams: new Map(teams) });
let n = 0;
const rule = (partial: Partial<Rule> & Pick<Rule, 'limit'>): Rule => ({
  id: `r${++n}`,
  name: '',
  scope: { kind: 'EVERYWHERE' },
  who: { kind: 'EVERYONE' },
  appliesToAdmins: false,
  ...partial,
});
const span = (start: string, end: string) => ({ startTime: new Date(start), endTime: new Date(end) });
const NOW = new Date('2030-03-04T08:00:00Z');

describe('precedence', () => {
  const everywhere = rule({ limit: { kind: 'BOOKING_WINDOW', days: 14 } });
  const managers = rule({ who: { kind: 'ROLE', role: 'TEAM_MANAGER' }, limit: { kind: 'BOOKING_WINDOW', days: 30 } });
  const room = rule({ scope: { kind: 'ROOM', id: 'room' }, limit: { kind: 'BOOKING_WINDOW', days: 7 } });
  const area = rule({ scope: { kind: 'AREA', id: 'area' }, limit: { kind: 'BOOKING_WINDOW', days: 3 } });
  const otherRoom = rule({ scope: { kind: 'ROOM', id: 'elsewhere' }, limit: { kind: 'BOOKING_WINDOW', days: 1 } });

  it('a more specific who wins within one scope: managers 30 days, everyone else 14', () => {
    expect(rulesInForce([everywhere, managers], place, person())).toEqual([everywhere]);
    expect(rulesInForce([everywhere, managers], place, person([['t', 'MANAGER']]))).toEqual([managers]);
  });

  it('scope before who: area > room > department > desk type > everywhere; rules of other places never hold', () => {
    expect(rulesInForce([everywhere, managers, room, otherRoom], place, person([['t', 'MANAGER']]))).toEqual([room]);
    expect(rulesInForce([room, area, everywhere], place, person())).toEqual([area]);
  });

  it('equally specific rules of two of the person’s teams: the one that allows more', () => {
    const a = rule({ who: { kind: 'TEAM', teamId: 'a' }, limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' } });
    const b = rule({ who: { kind: 'TEAM', teamId: 'b' }, limit: { kind: 'MAX_BOOKINGS', count: 4, per: 'WEEK' } });
    expect(
      rulesInForce(
        [a, b],
        place,
        person([
          ['a', 'MEMBER'],
          ['b', 'MEMBER'],
        ]),
      ),
    ).toEqual([b]);
  });

  it('different limits and different periods all hold', () => {
    const week = rule({ limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' } });
    const day = rule({ limit: { kind: 'MAX_BOOKINGS', count: 1, per: 'DAY' } });
    expect(rulesInForce([everywhere, week, day], place, person())).toHaveLength(3);
  });

  it('admins are bound only by rules that say so', () => {
    const forAdmins = rule({ appliesToAdmins: true, limit: { kind: 'MAX_CONCURRENT', count: 1 } });
    expect(rulesInForce([everywhere, forAdmins], place, person([], true))).toEqual([forAdmins]);
  });
});

describe('limits without counting', () => {
  it('BOOKING_WINDOW, MIN_DURATION, MAX_DURATION', () => {
    const window = rule({ limit: { kind: 'BOOKING_WINDOW', days: 14 } });
    expect(staticRefusal(window, span('2030-03-18T08:00Z', '2030-03-18T10:00Z'), 'UTC', NOW)).toBeUndefined();
    expect(staticRefusal(window, span('2030-03-19T09:00Z', '2030-03-19T10:00Z'), 'UTC', NOW)?.limit).toEqual({
      name: 'BOOKING_WINDOW',
      max: 14,
      current: 16,
      requested: 1,
    });
    const min = rule({ limit: { kind: 'MIN_DURATION', minutes: 60 } });
    expect(staticRefusal(min, span('2030-03-05T09:00Z', '2030-03-05T09:59Z'), 'UTC', NOW)?.code).toBe('POLICY_VIOLATION');
    const max = rule({ limit: { kind: 'MAX_DURATION', minutes: 60 } });
    expect(staticRefusal(max, span('2030-03-05T09:00Z', '2030-03-05T10:00Z'), 'UTC', NOW)).toBeUndefined();
  });

  it('GRANULARITY in the office’s zone: whole local days and hours', () => {
    const day = rule({ limit: { kind: 'GRANULARITY', unit: 'DAY' } });
    // Berlin is UTC+1 in March before the change: local midnight is 23:00 UTC.
    expect(staticRefusal(day, span('2030-03-04T23:00Z', '2030-03-05T23:00Z'), 'Europe/Berlin', NOW)).toBeUndefined();
    expect(staticRefusal(day, span('2030-03-05T00:00Z', '2030-03-06T00:00Z'), 'Europe/Berlin', NOW)).toBeDefined();
    const hour = rule({ limit: { kind: 'GRANULARITY', unit: 'HOUR' } });
    expect(staticRefusal(hour, span('2030-03-05T09:00Z', '2030-03-05T10:30Z'), 'UTC', NOW)).toBeDefined();
  });

  it('WEEKDAYS_HOURS: every local day touched is allowed, and the hours hold on the start’s day', () => {
    const limit = rule({ limit: { kind: 'WEEKDAYS_HOURS', weekdays: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' } });
    expect(staticRefusal(limit, span('2030-03-08T08:00Z', '2030-03-08T18:00Z'), 'UTC', NOW)).toBeUndefined();
    expect(staticRefusal(limit, span('2030-03-09T08:00Z', '2030-03-09T10:00Z'), 'UTC', NOW)?.message).toContain('only on Mondays');
    expect(staticRefusal(limit, span('2030-03-05T17:00Z', '2030-03-05T19:00Z'), 'UTC', NOW)).toBeDefined();
    expect(staticRefusal(limit, span('2030-03-05T17:00Z', '2030-03-06T09:00Z'), 'UTC', NOW)).toBeDefined();
    const allDay = rule({ limit: { kind: 'WEEKDAYS_HOURS', weekdays: [2], to: '24:00' } });
    expect(staticRefusal(allDay, span('2030-03-05T00:00Z', '2030-03-06T00:00Z'), 'UTC', NOW)).toBeUndefined();
  });
});

describe('counted limits', () => {
  const held = (start: string, end: string, where: Partial<Held> = {}): Held => ({
    ...span(start, end),
    deskType: 'FLEX',
    roomId: 'room',
    departmentId: 'dept',
    areaIds: [],
    ...where,
  });
  const none = { taken: new Map<string, number>(), desks: new Map<string, number>() };

  it('periods are local: an ISO week from Monday, a month, a day, in the zone', () => {
    // Sunday 23:30 in Berlin still belongs to the week that began on Monday the 4th.
    expect(periodOf(new Date('2030-03-10T22:30Z'), 'WEEK', 'Europe/Berlin')).toEqual({
      from: new Date('2030-03-03T23:00Z'),
      to: new Date('2030-03-10T23:00Z'),
    });
    expect(periodOf(new Date('2030-03-31T12:00Z'), 'MONTH', 'Europe/Berlin')).toEqual({
      from: new Date('2030-02-28T23:00Z'),
      to: new Date('2030-03-31T22:00Z'),
    });
  });

  it('MAX_BOOKINGS counts the bookings starting in the period, in the rule’s scope', () => {
    const limit = rule({ scope: { kind: 'DEPARTMENT', id: 'dept' }, limit: { kind: 'MAX_BOOKINGS', count: 2, per: 'WEEK' } });
    const week = [held('2030-03-04T09:00Z', '2030-03-04T17:00Z'), held('2030-03-05T09:00Z', '2030-03-05T17:00Z', { departmentId: 'other' })];
    expect(countedRefusal(limit, span('2030-03-06T09:00Z', '2030-03-06T17:00Z'), { ...place, zone: 'UTC' }, week, none, NOW)).toBeUndefined();
    const full = [...week, held('2030-03-07T09:00Z', '2030-03-07T17:00Z')];
    const refusal = countedRefusal(limit, span('2030-03-08T09:00Z', '2030-03-08T17:00Z'), { ...place, zone: 'UTC' }, full, none, NOW);
    expect(refusal).toMatchObject({ code: 'POLICY_LIMIT_REACHED', message: 'You have booked 2 of your 2 bookings this week', limit: { max: 2, current: 2 } });
  });

  it('MAX_HOURS adds the hours asked for; MAX_CONCURRENT counts what has not ended', () => {
    const hours = rule({ limit: { kind: 'MAX_HOURS', hours: 10, per: 'DAY' } });
    const day = [held('2030-03-05T08:00Z', '2030-03-05T14:00Z')];
    expect(countedRefusal(hours, span('2030-03-05T14:00Z', '2030-03-05T18:00Z'), { ...place, zone: 'UTC' }, day, none, NOW)).toBeUndefined();
    expect(countedRefusal(hours, span('2030-03-05T14:00Z', '2030-03-05T18:01Z'), { ...place, zone: 'UTC' }, day, none, NOW)).toBeDefined();
    const concurrent = rule({ limit: { kind: 'MAX_CONCURRENT', count: 1 } });
    expect(
      countedRefusal(concurrent, span('2030-03-09T09:00Z', '2030-03-09T10:00Z'), place, [held('2030-03-01T09:00Z', '2030-03-01T10:00Z')], none, NOW),
    ).toBeUndefined();
    expect(countedRefusal(concurrent, span('2030-03-09T09:00Z', '2030-03-09T10:00Z'), place, day, none, NOW)).toBeDefined();
  });

  it('CAPACITY: a percent of the scope’s desks, rounded down, per local day', () => {
    const cap = rule({ scope: { kind: 'ROOM', id: 'room' }, limit: { kind: 'CAPACITY', percent: 60 } });
    const figures = (taken: number) => ({ taken: new Map([[`${cap.id}:2030-03-05`, taken]]), desks: new Map([[cap.id, 10]]) });
    const booking = span('2030-03-05T09:00Z', '2030-03-05T10:00Z');
    expect(countedRefusal(cap, booking, { ...place, zone: 'UTC' }, [], figures(5), NOW)).toBeUndefined();
    expect(countedRefusal(cap, booking, { ...place, zone: 'UTC' }, [], figures(6), NOW)?.limit).toEqual({ name: 'CAPACITY', max: 6, current: 6, requested: 1 });
  });
});

describe('areas', () => {
  const sales: Area = {
    id: 'area',
    name: 'Sales floor',
    kind: 'ROOM',
    departmentId: null,
    roomId: 'room',
    weekdays: [2, 4],
    exclusive: true,
    teamIds: ['sales'],
    teamNames: ['Sales'],
  };
  const tuesday = span('2030-03-05T08:00Z', '2030-03-05T16:00Z');
  const wednesday = span('2030-03-06T08:00Z', '2030-03-06T16:00Z');

  it('an exclusive area refuses people in none of its teams on its weekdays only', () => {
    expect(areaRefusal([sales], place, person(), tuesday, undefined)?.message).toBe('Sales floor is reserved for Sales on Tuesdays, Thursdays (2030-03-05)');
    expect(areaRefusal([sales], place, person(), wednesday, undefined)).toBeUndefined();
    expect(areaRefusal([sales], place, person([['sales', 'MEMBER']]), tuesday, undefined)).toBeUndefined();
    expect(areaRefusal([sales], place, person([], true), tuesday, undefined)).toBeUndefined();
    expect(areaRefusal([{ ...sales, exclusive: false }], place, person(), tuesday, undefined)).toBeUndefined();
  });

  it('OWN_AREAS_ONLY keeps a team to its areas on their days; areas come before every other limit', () => {
    const own = rule({ who: { kind: 'TEAM', teamId: 'sales' }, limit: { kind: 'OWN_AREAS_ONLY' } });
    const member = person([['sales', 'MEMBER']]);
    expect(areaRefusal([sales], place, member, tuesday, own)).toBeUndefined();
    expect(areaRefusal([sales], place, member, wednesday, own)?.rule.kind).toBe('OWN_AREAS_ONLY');
    const window = rule({ limit: { kind: 'BOOKING_WINDOW', days: 1 } });
    expect(evaluate({ rules: [window], areas: [sales], place, person: person(), span: tuesday, now: NOW })?.rule.kind).toBe('AREA_RESERVED');
  });
});
