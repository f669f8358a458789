import type { Database } from '../../db/client.js';
import type { Caller } from '../../identity/caller.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, invalid, notFound } from '../../shared/errors.js';
import { parseInstant } from '../../shared/time.js';
import { toBookingDefaultsDto, toFavouriteDto, minutesOf, nearReason } from './favourites.mappers.js';
import { FavouritesRepository, type DefaultsRow } from './favourites.repository.js';
import {
  FAVOURITES_MAX,
  NEAR_TEAM_LIMIT_DEFAULT,
  type BookingDefaultsBody,
  type BookingDefaultsDto,
  type FavouriteDeskDto,
  type FavouriteDesksDto,
  type NearTeamDto,
  type NearTeamQuery,
} from './favourites.schemas.js';

/** The longest window the near-my-team ranking takes: it speaks of one day (docs/favourites.md#book-near-my-team). */
const NEAR_TEAM_WINDOW_MAX_MS = 24 * 3_600_000;

/** Nothing chosen yet: no home office, no default window (docs/favourites.md#home-office-and-default-window). */
const NO_DEFAULTS: DefaultsRow = { homeDepartmentId: null, windowKind: 'NONE', windowStartMinute: null, windowEndMinute: null, timeZone: 'UTC' };

/**
 * Favourite desks, the home office and default window, and the near-my-team ranking
 * (docs/favourites.md). Everything here is the caller's own: no route takes another person's id.
 */
export class FavouritesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** FAVOURITES_MAX: desks one person may star. */
    private readonly maxFavourites = FAVOURITES_MAX,
  ) {}

  async list(caller: Caller): Promise<FavouriteDesksDto> {
    const rows = await new FavouritesRepository(this.db).favourites(caller.user.id);
    return { content: rows.map(toFavouriteDto), max: this.maxFavourites };
  }

  /** Stars a desk (again: nothing changes); 404 for an unknown desk, 409 TOO_MANY_FAVOURITES past the bound. */
  async add(caller: Caller, deskId: string): Promise<FavouriteDeskDto> {
    const repository = new FavouritesRepository(this.db);
    const outcome = await repository.addFavourite(caller.user.id, deskId, this.maxFavourites, this.clock.now());
    if (outcome === 'no-desk') throw notFound('Desk', deskId);
    if (outcome === 'full') {
      throw new AppError('TOO_MANY_FAVOURITES', `You may star at most ${this.maxFavourites} desks; unstar one first`, {
        limit: { name: 'FAVOURITES_MAX', max: this.maxFavourites, current: this.maxFavourites, requested: 1 },
      });
    }
    const row = (await repository.favourites(caller.user.id)).find((favourite) => favourite.deskId === deskId);
    // Deleted between the star and the read: as if it never existed.
    if (!row) throw notFound('Desk', deskId);
    return toFavouriteDto(row);
  }

  /** Unstars a desk; 404 when it was not starred. */
  async remove(caller: Caller, deskId: string): Promise<void> {
    if (!(await new FavouritesRepository(this.db).removeFavourite(caller.user.id, deskId))) throw notFound('Favourite desk', deskId);
  }

  async defaults(caller: Caller): Promise<BookingDefaultsDto> {
    return toBookingDefaultsDto((await new FavouritesRepository(this.db).defaults(caller.user.id)) ?? NO_DEFAULTS);
  }

  /** Replaces the home office and default window; 400 naming the field for an unknown office or a window that does not fit. */
  async saveDefaults(caller: Caller, body: BookingDefaultsBody): Promise<BookingDefaultsDto> {
    const repository = new FavouritesRepository(this.db);
    if (body.homeDepartmentId !== null && !(await repository.departmentExists(body.homeDepartmentId))) {
      throw invalid('homeDepartmentId', 'no such department');
    }
    let start: number | null = null;
    let end: number | null = null;
    if (body.window === 'HOURS') {
      if (body.startTime === null) throw invalid('startTime', 'is required for an HOURS window');
      if (body.endTime === null) throw invalid('endTime', 'is required for an HOURS window');
      start = minutesOf(body.startTime);
      end = minutesOf(body.endTime);
      if (start === 1440) throw invalid('startTime', 'must be before 24:00');
      if (end <= start) throw invalid('endTime', 'must be after startTime');
    } else {
      if (body.startTime !== null) throw invalid('startTime', `must be null for a ${body.window} window`);
      if (body.endTime !== null) throw invalid('endTime', `must be null for a ${body.window} window`);
    }
    await repository.saveDefaults(
      caller.user.id,
      { homeDepartmentId: body.homeDepartmentId, windowKind: body.window, windowStartMinute: start, windowEndMinute: end },
      this.clock.now(),
    );
    return this.defaults(caller);
  }

  /**
   * Free desks ranked by nearness to the people of the caller's teams booked that day
   * (docs/favourites.md#book-near-my-team): one statement (the caller's teams with it), at most `limit` desks, counts and never names.
   */
  async nearTeam(caller: Caller, query: NearTeamQuery): Promise<NearTeamDto> {
    const start = parseInstant('startTime', query.startTime);
    const end = parseInstant('endTime', query.endTime);
    if (end <= start) throw invalid('endTime', 'must be after startTime');
    if (end.getTime() - start.getTime() > NEAR_TEAM_WINDOW_MAX_MS) throw invalid('endTime', 'the window may be at most 24 hours long');
    const near = await new FavouritesRepository(this.db).nearTeam(caller.user.id, start, end, query.departmentId, query.limit ?? NEAR_TEAM_LIMIT_DEFAULT);
    const team = near.teamCount === 1 && near.teamName !== null ? near.teamName : undefined;
    return {
      teams: near.teamCount,
      desks: near.desks.map((row) => ({
        deskId: row.deskId,
        deskName: row.deskName,
        roomId: row.roomId,
        roomName: row.roomName,
        departmentId: row.departmentId,
        nearness: row.nearness,
        teammates: row.teammates,
        reason: nearReason(row, team),
      })),
    };
  }
}
