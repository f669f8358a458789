import { describe, expect, it } from 'vitest';
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
