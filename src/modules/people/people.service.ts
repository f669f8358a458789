import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid, notFound } from '../../shared/errors.js';
import { parseInstant } from '../../shared/time.js';
import { localDate, nextDate } from '../../shared/zone.js';
import { isAdmin, type Caller } from '../../identity/caller.js';
import { MOST_PRIVATE } from '../organisation/organisation.access.js';
import { checkedIn, occupantsOf, toPersonInDto, toStarredDto } from './people.mappers.js';
import { PeopleRepository, type BookingRow } from './people.repository.js';
import {
  OCCUPANTS_MAX_WINDOW_HOURS,
  PEOPLE_IN_MAX,
  PEOPLE_WEEK_MAX,
  STARRED_PER_PERSON,
  type DeskOccupantsDto,
  type DeskOccupantsQuery,
  type PeopleInDto,
  type PeopleInQuery,
  type PeopleWeekDto,
  type PersonInDto,
  type PersonPrivacyDto,
  type PutPersonPrivacyBody,
  type StarredPersonDto,
} from './people.schemas.js';
import { showsCheckIn, showsDesk, showsName, type Viewer } from './people.visibility.js';

export const viewerOf = (caller: Caller): Viewer => (isAdmin(caller) ? { kind: 'admin', id: caller.user.id } : { kind: 'user', id: caller.user.id });

const addDays = (date: string, days: number): string => {
  let day = date;
  for (let i = 0; i < days; i += 1) day = nextDate(day);
  return day;
};

/**
 * Who is in, the week view, whose desk is whose, and each person's switches and stars
 * (docs/people.md). Every name passes people.visibility.ts first.
 */
export class PeopleService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get people() {
    return new PeopleRepository(this.db);
  }

  async privacy(caller: Caller): Promise<PersonPrivacyDto> {
    return this.people.privacyOf(caller.user.id);
  }

  async savePrivacy(caller: Caller, body: PutPersonPrivacyBody): Promise<PersonPrivacyDto> {
    const current = await this.people.privacyOf(caller.user.id);
    return this.people.savePrivacy(caller.user.id, { ...current, ...body }, this.clock.now());
  }

  async starred(caller: Caller): Promise<StarredPersonDto[]> {
    return (await this.people.starredBy(caller.user.id)).map(toStarredDto);
  }

  async star(caller: Caller, userId: string): Promise<StarredPersonDto[]> {
    if (userId === caller.user.id) throw invalid('userId', 'is you: your own bookings are in your week anyway');
    if (!(await this.people.userExists(userId))) throw invalid('userId', 'no such user');
    const outcome = await this.people.star(caller.user.id, userId, STARRED_PER_PERSON, this.clock.now());
    if (outcome === 'full') throw new AppError('TOO_MANY_STARRED', `You may star at most ${STARRED_PER_PERSON} people`);
    return this.starred(caller);
  }

  async unstar(caller: Caller, userId: string): Promise<void> {
    if (!(await this.people.unstar(caller.user.id, userId))) throw notFound('Starred person', userId);
  }

  /** Who's in (docs/people.md#who-is-in): one statement (PeopleRepository.day). */
  async whoIsIn(caller: Caller, query: PeopleInQuery): Promise<PeopleInDto> {
    const day = await this.people.day(query.departmentId, query.date, this.clock.now(), caller.user.id, PEOPLE_IN_MAX + 1);
    if (!day) throw notFound('Department', query.departmentId);
    const { office, bookings: rows } = day;
    const settings = office;
    const date = office.date;
    const truncated = rows.length > PEOPLE_IN_MAX;
    const bookings = truncated ? rows.slice(0, PEOPLE_IN_MAX) : rows;
    const viewer = viewerOf(caller);
    const teams = new Map<string, { team: { id: string; name: string }; people: PersonInDto[] }>();
    const withoutTeam: PersonInDto[] = [];
    let anonymous = 0;
    for (const row of bookings) {
      if (!showsName(viewer, row, settings.nameVisibility, 'list')) {
        anonymous += 1;
        continue;
      }
      const entry = toPersonInDto(row, showsDesk(viewer, row), showsCheckIn(viewer, row, settings.worksCouncilMode));
      if (row.teams.length === 0) withoutTeam.push(entry);
      for (const team of row.teams) {
        let group = teams.get(team.id);
        if (!group) teams.set(team.id, (group = { team, people: [] }));
        group.people.push(entry);
      }
    }
    return {
      departmentId: query.departmentId,
      date,
      timeZone: office.timeZone,
      booked: bookings.length,
      checkedIn: bookings.filter((row: BookingRow) => checkedIn(row.status) === true).length,
      anonymous,
      teams: [...teams.values()].sort((a, b) => a.team.name.localeCompare(b.team.name) || a.team.id.localeCompare(b.team.id)),
      withoutTeam,
      truncated,
    };
  }

  /** The week view (docs/people.md#the-week-view): one statement, then the rules per person. */
  async week(caller: Caller, from: string | undefined): Promise<PeopleWeekDto> {
    const first = from ?? localDate(this.clock.now(), 'UTC');
    const last = addDays(first, 6);
    const rows = await this.people.week(caller.user.id, first, last, PEOPLE_WEEK_MAX + 1);
    // The caller's own row is always there, and every row carries the organisation's settings.
    const settings = rows[0] ?? MOST_PRIVATE;
    const truncated = rows.length > PEOPLE_WEEK_MAX;
    const viewer = viewerOf(caller);
    const people = new Map<string, PeopleWeekDto['people'][number]>();
    const anonymous = new Map<string, number>();
    for (const row of truncated ? rows.slice(0, PEOPLE_WEEK_MAX) : rows) {
      const person = { ...row, sharesTeam: row.teamMate };
      if (!showsName(viewer, person, settings.nameVisibility, 'list')) {
        if (row.date) anonymous.set(row.date, (anonymous.get(row.date) ?? 0) + 1);
        continue;
      }
      let entry = people.get(row.userId);
      if (!entry) {
        entry = {
          userId: row.userId,
          firstName: row.firstName,
          lastName: row.lastName,
          me: row.userId === caller.user.id,
          starred: row.starred,
          teamMate: row.teamMate,
          days: [],
        };
        people.set(row.userId, entry);
      }
      if (row.date && row.departmentId && row.location && row.startTime && row.endTime) {
        const desk = showsDesk(viewer, person);
        entry.days.push({
          date: row.date,
          departmentId: row.departmentId,
          location: row.location,
          deskId: desk ? row.deskId : null,
          deskName: desk ? row.deskName : null,
          startTime: row.startTime,
          endTime: row.endTime,
        });
      }
    }
    const days = Array.from({ length: 7 }, (_, index) => addDays(first, index));
    return {
      from: first,
      to: last,
      people: [...people.values()],
      anonymous: days.map((date) => ({ date, count: anonymous.get(date) ?? 0 })),
      truncated,
    };
  }

  /** Whose desk is whose on the floor plan (docs/people.md#the-floor-plan): the office's bookings in the window, names per the rules. */
  async occupants(caller: Caller, query: DeskOccupantsQuery): Promise<DeskOccupantsDto> {
    const start = parseInstant('from', query.from);
    const end = parseInstant('to', query.to);
    if (end <= start) throw invalid('to', 'must be after from');
    if (end.getTime() - start.getTime() > OCCUPANTS_MAX_WINDOW_HOURS * 3_600_000)
      throw invalid('to', `must be at most ${OCCUPANTS_MAX_WINDOW_HOURS} hours after from`);
    const settings = await this.people.office(query.departmentId);
    if (!settings) throw notFound('Department', query.departmentId);
    const rows = await this.people.bookings(query.departmentId, { start, end }, caller.user.id, PEOPLE_IN_MAX);
    return { departmentId: query.departmentId, desks: occupantsOf(rows, (row) => showsName(viewerOf(caller), row, settings.nameVisibility, 'desk')) };
  }
}
