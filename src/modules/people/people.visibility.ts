import type { NameVisibility } from '../organisation/organisation.schemas.js';

/**
 * Who may see whose name, where (docs/people.md#what-is-shown-to-whom): the one place these
 * rules are written; every people view, the floor plan's occupants and the lobby display ask it.
 */

/** Who is looking: an admin, a signed-in user, or the lobby display (nobody signed in). */
export type Viewer = { kind: 'admin'; id: string } | { kind: 'user'; id: string } | { kind: 'display' };

/** What the rules need to know of the person whose booking it is. */
export interface Person {
  userId: string;
  hideBookings: boolean;
  bookAnonymously: boolean;
  /** Whether they share a team with the viewer (false for the display). */
  sharesTeam: boolean;
}

/**
 * A list of people (who's in, the week view) or a desk (the floor plan, the lobby display). A
 * person who hides their bookings is left out of lists; one who books anonymously shows no name
 * on desks; both keep the desk booked.
 */
export type View = 'list' | 'desk';

const byMode = (mode: NameVisibility, person: Person): boolean => mode === 'everyone' || (mode === 'teams' && person.sharesTeam);

/** Whether `viewer` sees `person`'s name on their booking in `view` under `mode`. */
export function showsName(viewer: Viewer, person: Person, mode: NameVisibility, view: View): boolean {
  if (viewer.kind === 'admin') return true;
  if (viewer.kind === 'user' && viewer.id === person.userId) return true;
  if (person.hideBookings) return false;
  if (view === 'desk' && person.bookAnonymously) return false;
  if (viewer.kind === 'display') return mode === 'everyone';
  return byMode(mode, person);
}

/** Whether a list that names the person also says where they sit (not when they book anonymously). */
export const showsDesk = (viewer: Viewer, person: Person): boolean =>
  viewer.kind === 'admin' || (viewer.kind === 'user' && viewer.id === person.userId) || !person.bookAnonymously;

/** Whether the person's own check-in is shown: never in works-council mode, except to themselves (docs/people.md#works-council-mode). */
export const showsCheckIn = (viewer: Viewer, person: Person, worksCouncilMode: boolean): boolean =>
  !worksCouncilMode || (viewer.kind === 'user' && viewer.id === person.userId) || (viewer.kind === 'admin' && viewer.id === person.userId);
