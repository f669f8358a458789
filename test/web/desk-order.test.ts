import { describe, expect, it } from 'vitest';
import { initialSearch, orderRooms } from '../../web/src/features/search/order.js';
import { NO_FILTERS, type RoomWithFreeDesks } from '../../web/src/features/search/search.js';

/** Find a desk's opening search and the order of its free desks (docs/favourites.md). */

const room = (id: string, deskIds: string[]): RoomWithFreeDesks =>
  ({
    id,
    name: id,
    departmentId: 'd1',
    available: true,
    desks: deskIds.map((deskId) => ({ id: deskId, name: deskId, type: 'FLEX', roomId: id, departmentId: 'd1' })),
  }) as RoomWithFreeDesks;
const ids = (rooms: RoomWithFreeDesks[]) => rooms.map((r) => `${r.id}:${r.desks.map((desk) => desk.id).join(',')}`);
const ROOMS = [room('Atlas', ['a1', 'a2']), room('Borealis', ['b1', 'b2']), room('Cosmos', ['c1'])];
const TOMORROW = { date: '2030-03-05', start: '09:00', end: '17:00' };
const DEPARTMENTS = [{ id: 'd1', location: 'Berlin', building: 'Spree House', floor: 3 }];

describe('initialSearch (docs/favourites.md#home-office-and-default-window)', () => {
  it('opens on the home office and the usual hours; the whole day is 00:00–23:45; 24:00 ends at 23:45', () => {
    const home = { homeDepartmentId: 'd1', window: 'HOURS' as const, startTime: '08:00', endTime: '12:00' };
    expect(initialSearch(TOMORROW, home, DEPARTMENTS)).toEqual({
      window: { date: '2030-03-05', start: '08:00', end: '12:00' },
      filters: { ...NO_FILTERS, location: 'Berlin', building: 'Spree House', floor: '3' },
    });
    expect(initialSearch(TOMORROW, { ...home, window: 'WHOLE_DAY', startTime: null, endTime: null }, DEPARTMENTS).window).toEqual({
      ...TOMORROW,
      start: '00:00',
      end: '23:45',
    });
    expect(initialSearch(TOMORROW, { ...home, startTime: '18:00', endTime: '24:00' }, DEPARTMENTS).window).toEqual({
      ...TOMORROW,
      start: '18:00',
      end: '23:45',
    });
  });

  it('falls back to the given window and anywhere: nothing chosen, defaults not read, or a home office that is gone', () => {
    expect(initialSearch(TOMORROW, undefined, DEPARTMENTS)).toEqual({ window: TOMORROW, filters: NO_FILTERS });
    expect(initialSearch(TOMORROW, { homeDepartmentId: 'gone', window: 'NONE', startTime: null, endTime: null }, DEPARTMENTS)).toEqual({
      window: TOMORROW,
      filters: NO_FILTERS,
    });
  });
});

describe('orderRooms (docs/favourites.md)', () => {
  it('keeps the search order by room', () => {
    expect(ids(orderRooms(ROOMS, 'FOUND', new Set(['c1']), []))).toEqual(['Atlas:a1,a2', 'Borealis:b1,b2', 'Cosmos:c1']);
  });

  it('puts rooms with a favourite first and favourites first within a room, ties in search order', () => {
    expect(ids(orderRooms(ROOMS, 'FAVOURITES', new Set(['b2', 'c1']), []))).toEqual(['Borealis:b2,b1', 'Cosmos:c1', 'Atlas:a1,a2']);
  });

  it('follows the near-my-team ranking, a room at its nearest desk, unranked desks after', () => {
    expect(ids(orderRooms(ROOMS, 'NEAR_TEAM', new Set(), [{ deskId: 'c1' }, { deskId: 'a2' }]))).toEqual(['Cosmos:c1', 'Atlas:a2,a1', 'Borealis:b1,b2']);
  });
});
