import { beforeAll, describe, expect, it } from 'vitest';
import { startTestI18n } from '../helpers/i18n.js';
import { floorLabel } from '../../web/src/lib/labels.js';
import {
  changeFilter,
  departmentMatches,
  filterChoices,
  freeDeskCount,
  NO_FILTERS,
  roomSearchBody,
  roomsOfPages,
  type RoomWithFreeDesks,
} from '../../web/src/features/search/search.js';

// The floors' and images' words are the English messages (namespace labels, docs/i18n.md).
beforeAll(() => startTestI18n('en'));

const DEPARTMENTS = [
  { id: 'd1', location: 'Berlin', building: 'Spree House', floor: 2 },
  { id: 'd2', location: 'Berlin', building: 'Spree House', floor: 0 },
  { id: 'd3', location: 'Berlin', building: 'Tower', floor: 5 },
  { id: 'd4', location: 'Berlin-Mitte', building: 'Annex', floor: 1 },
  { id: 'd5', location: 'Amsterdam', building: 'Canal', floor: 2 },
];

const room = (id: string, deskIds: string[]): RoomWithFreeDesks => ({
  id,
  name: `Room ${id}`,
  departmentId: 'd1',
  available: true,
  desks: deskIds.map((deskId) => ({ id: deskId, name: deskId, type: 'FLEX', roomId: id, departmentId: 'd1' })),
});

describe('filters', () => {
  it('offers each list narrowed by the choices before it', () => {
    expect(filterChoices(DEPARTMENTS, NO_FILTERS)).toEqual({
      locations: ['Amsterdam', 'Berlin', 'Berlin-Mitte'],
      buildings: ['Annex', 'Canal', 'Spree House', 'Tower'],
      floors: [0, 1, 2, 5],
    });
    expect(filterChoices(DEPARTMENTS, { ...NO_FILTERS, location: 'Berlin' })).toEqual({
      locations: ['Amsterdam', 'Berlin', 'Berlin-Mitte'],
      buildings: ['Spree House', 'Tower'],
      floors: [0, 2, 5],
    });
    expect(filterChoices(DEPARTMENTS, { ...NO_FILTERS, location: 'Berlin', building: 'Spree House' }).floors).toEqual([0, 2]);
  });

  it('clears narrower choices when a broader one changes', () => {
    const chosen = { location: 'Berlin', building: 'Tower', floor: '5', equipment: ['MONITOR' as const] };
    expect(changeFilter(chosen, { location: 'Amsterdam' })).toEqual({ location: 'Amsterdam', building: '', floor: '', equipment: ['MONITOR'] });
    expect(changeFilter(chosen, { building: 'Spree House' })).toEqual({ location: 'Berlin', building: 'Spree House', floor: '', equipment: ['MONITOR'] });
    expect(changeFilter(chosen, { location: 'Berlin', floor: '0' })).toEqual({ ...chosen, floor: '0' });
  });

  it('matches departments exactly, where the search matches substrings', () => {
    const berlin = { ...NO_FILTERS, location: 'Berlin' };
    expect(DEPARTMENTS.filter((department) => departmentMatches(department, berlin)).map((department) => department.id)).toEqual(['d1', 'd2', 'd3']);
    expect(departmentMatches(DEPARTMENTS[1]!, { ...NO_FILTERS, floor: '0' })).toBe(true);
    expect(departmentMatches(DEPARTMENTS[0]!, { ...NO_FILTERS, floor: '0' })).toBe(false);
  });

  it('names floors in words', () => {
    expect([floorLabel(0), floorLabel(3), floorLabel(-1)]).toEqual(['Ground floor', 'Floor 3', 'Basement 1']);
  });
});

describe('the room search body', () => {
  const window = { start: '2030-07-16T07:00:00.000Z', end: '2030-07-16T10:00:00.000Z' };

  it('asks for bookable desks free for the whole window', () => {
    expect(roomSearchBody(NO_FILTERS, window)).toEqual({
      room: { available: true },
      desk: { type: 'FLEX' },
      reservation: { free: { start: window.start, end: window.end } },
    });
  });

  it('adds the place and every chosen kind of equipment', () => {
    expect(roomSearchBody({ location: 'Berlin', building: 'Tower', floor: '0', equipment: ['DOCKING_STATION', 'MONITOR'] }, window)).toEqual({
      department: { location: 'Berlin', building: 'Tower', floor: 0 },
      room: { available: true },
      desk: { type: 'FLEX' },
      equipment: [{ type: 'DOCKING_STATION' }, { type: 'MONITOR' }],
      reservation: { free: { start: window.start, end: window.end } },
    });
  });
});

describe('the rooms found', () => {
  it('lists the rooms of every page read, each once, in order', () => {
    const pages = [{ content: [room('r1', ['a']), room('r2', ['b'])] }, { content: [room('r2', ['b']), room('r3', ['c', 'd'])] }];
    const rooms = roomsOfPages(pages);
    expect(rooms.map((item) => item.id)).toEqual(['r1', 'r2', 'r3']);
    expect(freeDeskCount(rooms)).toBe(4);
    expect(roomsOfPages([])).toEqual([]);
  });
});
