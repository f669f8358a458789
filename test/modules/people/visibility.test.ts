import { describe, expect, it } from 'vitest';
import { showsCheckIn, showsDesk, showsName, type Person, type Viewer } from '../../../src/modules/people/people.visibility.js';

/**
 * The rules of who sees whose name, desk and check-in (docs/people.md#what-is-shown-to-whom),
 * case by case: every viewer × mode × switch × view, against the tables of docs/people.md.
 */

const ME = 'me';
const user: Viewer = { kind: 'user', id: ME };
const admin: Viewer = { kind: 'admin', id: 'boss' };
const display: Viewer = { kind: 'display' };
const person = (changes: Partial<Person> = {}): Person => ({ userId: 'them', hideBookings: false, bookAnonymously: false, sharesTeam: false, ...changes });
const modes = ['everyone', 'teams', 'nobody'] as const;

describe('who sees whose name (docs/people.md#what-is-shown-to-whom)', () => {
  it('admins see every name in every mode and view, whatever the switches', () => {
    for (const mode of modes)
      for (const view of ['list', 'desk'] as const) expect(showsName(admin, person({ hideBookings: true, bookAnonymously: true }), mode, view)).toBe(true);
  });

  it('a person always sees their own bookings, switches or not', () => {
    for (const mode of modes) expect(showsName(user, person({ userId: ME, hideBookings: true, bookAnonymously: true }), mode, 'desk')).toBe(true);
  });

  it('a colleague sees names by the mode: everyone, team mates only, or nobody', () => {
    expect(modes.map((mode) => showsName(user, person({ sharesTeam: true }), mode, 'list'))).toEqual([true, true, false]);
    expect(modes.map((mode) => showsName(user, person(), mode, 'list'))).toEqual([true, false, false]);
  });

  it("hiding one's bookings leaves one out of lists and desks for colleagues and the display", () => {
    for (const mode of modes)
      for (const view of ['list', 'desk'] as const) {
        expect(showsName(user, person({ hideBookings: true, sharesTeam: true }), mode, view)).toBe(false);
        expect(showsName(display, person({ hideBookings: true }), mode, view)).toBe(false);
      }
  });

  it('booking anonymously keeps the name off desks but not off lists, and hides the desk in lists', () => {
    const anonymous = person({ bookAnonymously: true, sharesTeam: true });
    expect(showsName(user, anonymous, 'everyone', 'list')).toBe(true);
    expect(showsName(user, anonymous, 'everyone', 'desk')).toBe(false);
    expect(showsDesk(user, anonymous)).toBe(false);
    expect(showsDesk(admin, anonymous)).toBe(true);
    expect(showsDesk(user, person({ userId: ME, bookAnonymously: true }))).toBe(true);
    expect(showsDesk(user, person())).toBe(true);
  });

  it('the lobby display shows names only in mode everyone, never team-based', () => {
    expect(modes.map((mode) => showsName(display, person({ sharesTeam: true }), mode, 'desk'))).toEqual([true, false, false]);
  });

  it('works-council mode shows check-in to the person only, admins included; otherwise to whoever sees the name', () => {
    expect(showsCheckIn(admin, person(), true)).toBe(false);
    expect(showsCheckIn(user, person(), true)).toBe(false);
    expect(showsCheckIn(user, person({ userId: ME }), true)).toBe(true);
    expect(showsCheckIn({ kind: 'admin', id: 'them' }, person(), true)).toBe(true);
    expect(showsCheckIn(admin, person(), false)).toBe(true);
    expect(showsCheckIn(user, person(), false)).toBe(true);
  });
});
