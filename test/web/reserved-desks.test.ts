import { beforeAll, describe, expect, it } from 'vitest';
import { reservedReason, type reservedText, weekdaysOf } from '../../web/src/features/policies/reserved.js';
import { startTestI18n } from '../helpers/i18n.js';

/** Why a desk is not bookable for the caller, from the allowance's closed areas (docs/policies.md#why-a-desk-is-not-bookable). */

const area = (over: Partial<Parameters<typeof reservedText>[0]> = {}) => ({
  id: 'a1',
  name: 'Sales floor',
  teams: ['Sales'],
  weekdays: ['TU'] as ('MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU')[],
  kind: 'DESKS' as const,
  departmentId: null,
  roomId: null,
  deskIds: ['d1'],
  ...over,
});
// Local wall-clock times, as Find a desk composes them: 2031-01-07 is a Tuesday.
const tuesday = [new Date(2031, 0, 7, 9).toISOString(), new Date(2031, 0, 7, 17).toISOString()] as const;
const wednesday = [new Date(2031, 0, 8, 9).toISOString(), new Date(2031, 0, 8, 17).toISOString()] as const;
const desk = { id: 'd1', roomId: 'r1', departmentId: 'o1' };

describe('desks reserved for other teams', () => {
  beforeAll(() => startTestI18n('en'));

  it('names the local weekdays a window touches, its end excluded', () => {
    expect([...weekdaysOf(...tuesday)]).toEqual(['TU']);
    expect([...weekdaysOf(tuesday[0], new Date(2031, 0, 9, 0).toISOString())]).toEqual(['TU', 'WE']);
    expect(weekdaysOf('nonsense', tuesday[1]).size).toBe(0);
  });

  it('marks a desk of the area on its weekday, with the reason, and not on another day', () => {
    expect(reservedReason([area()], desk, weekdaysOf(...tuesday))).toBe('Sales floor: reserved for Sales on Tuesdays');
    expect(reservedReason([area()], desk, weekdaysOf(...wednesday))).toBeUndefined();
    expect(reservedReason([area()], { ...desk, id: 'd2' }, weekdaysOf(...tuesday))).toBeUndefined();
  });

  it('holds a room or a whole office, every day when no weekday is named', () => {
    const room = area({ kind: 'ROOM', roomId: 'r1', deskIds: [], weekdays: [] });
    expect(reservedReason([room], { ...desk, id: 'd9' }, weekdaysOf(...wednesday))).toBe('Sales floor: reserved for Sales');
    const office = area({ kind: 'DEPARTMENT', departmentId: 'o2', deskIds: [], weekdays: ['WE', 'TU'] });
    expect(reservedReason([office], desk, weekdaysOf(...tuesday))).toBeUndefined();
    expect(reservedReason([office], { ...desk, departmentId: 'o2' }, weekdaysOf(...tuesday))).toBe('Sales floor: reserved for Sales on Tuesdays, Wednesdays');
  });

  it('gives the reason in the language in use, the days named by Intl in the week’s order', async () => {
    const office = area({ weekdays: ['WE', 'TU'], teams: [] });
    try {
      await startTestI18n('de');
      expect(reservedReason([office], desk, weekdaysOf(...tuesday))).toBe('Sales floor: jeden Dienstag, Mittwoch für andere Teams reserviert');
      await startTestI18n('fr');
      expect(reservedReason([office], desk, weekdaysOf(...tuesday))).toBe('Sales floor : réservé à d’autres équipes le mardi, mercredi');
    } finally {
      await startTestI18n('en');
    }
  });
});
