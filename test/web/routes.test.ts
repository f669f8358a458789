import { describe, expect, it } from 'vitest';
import { asyncReducer, type AsyncState } from '../../web/src/lib/async.js';
import { matchRoute, safeNext } from '../../web/src/lib/routes.js';

describe('client routes', () => {
  it('matches fixed parts and collects parameters', () => {
    expect(matchRoute('/', '/')).toEqual({});
    expect(matchRoute('/reservations', '/reservations/')).toEqual({});
    expect(matchRoute('/admin/departments/:departmentId/rooms/:roomId', '/admin/departments/d-1/rooms/r%202')).toEqual({ departmentId: 'd-1', roomId: 'r 2' });
    expect(matchRoute('/admin/departments/:departmentId', '/admin/departments')).toBeUndefined();
    expect(matchRoute('/admin/departments/:departmentId', '/admin/users/x')).toBeUndefined();
    expect(matchRoute('/admin/departments/:departmentId', '/admin/departments/%E0%A4%A')).toBeUndefined();
  });

  it('returns after sign-in only to a page of this site', () => {
    expect(safeNext('/reservations?x=1')).toBe('/reservations?x=1');
    expect(safeNext(null)).toBe('/');
    expect(safeNext('https://evil.example/')).toBe('/');
    expect(safeNext('//evil.example/')).toBe('/');
    expect(safeNext('/\\evil.example/')).toBe('/');
    expect(safeNext('/sign-in?next=/x')).toBe('/');
  });
});

describe('loading state', () => {
  it('keeps the old data while reloading and after a failure', () => {
    let state: AsyncState<number[]> = { status: 'loading' };
    state = asyncReducer(state, { type: 'done', data: [1] });
    expect(state).toEqual({ status: 'ready', data: [1] });
    state = asyncReducer(state, { type: 'start' });
    expect(state).toEqual({ status: 'loading', data: [1] });
    state = asyncReducer(state, { type: 'failed', error: 'The server cannot be reached.' });
    expect(state).toEqual({ status: 'failed', data: [1], error: 'The server cannot be reached.' });
  });

  it('applies local changes to loaded data only', () => {
    const ready: AsyncState<number[]> = { status: 'ready', data: [1, 2] };
    expect(asyncReducer(ready, { type: 'update', update: (data) => data.filter((value) => value !== 1) })).toEqual({ status: 'ready', data: [2] });
    const empty: AsyncState<number[]> = { status: 'loading' };
    expect(asyncReducer(empty, { type: 'update', update: () => [9] })).toBe(empty);
  });
});
