import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, notFound } from '../../shared/errors.js';
import { lruGet } from '../../shared/lru.js';
import { localDate, nextDate, startOfLocalDate } from '../../shared/zone.js';
import type { Caller } from '../../identity/caller.js';
import { occupantsOf } from '../people/people.mappers.js';
import { PeopleRepository } from '../people/people.repository.js';
import { PEOPLE_IN_MAX } from '../people/people.schemas.js';
import { showsName } from '../people/people.visibility.js';
import { toDisplayDto } from './displays.mappers.js';
import { DisplaysRepository } from './displays.repository.js';
import { DISPLAYS_PER_OFFICE, type CreatedDisplayDto, type DisplayBoardDto, type DisplayDto } from './displays.schemas.js';

/** 32 random bytes, base64url: 43 characters. Anything else is refused before the database is asked. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** How long a token's office (or its absence) is believed without asking the database again. */
export const TOKEN_TRUST_MS = 60_000;
/** Tokens (known and unknown) whose answer is kept; beyond, the least recently used are dropped. */
const TOKENS_KEPT = 1000;
/** Offices whose board of the current minute is kept. */
const BOARDS_KEPT = 200;
/** Lookups of tokens not kept, per second and process, beyond which a display request is answered 429. */
export const TOKEN_LOOKUPS_PER_SECOND = 20;
/** Who the display is to the rules: nobody signed in, sharing no team. */
const NO_ONE = '00000000-0000-0000-0000-000000000000';

export const hashDisplayToken = (token: string) => createHash('sha256').update(token).digest('base64url');

interface Board {
  minute: number;
  answer: Promise<{ body: DisplayBoardDto; etag: string }>;
}

/**
 * Lobby displays (docs/people.md#the-lobby-display): admins create and revoke their tokens; the
 * public board of an office is computed at most once per office and minute in a process, whatever
 * the number of displays and viewers, and answered with an ETag.
 */
export class DisplaysService {
  private readonly tokens = new Map<string, { departmentId: string | undefined; until: number }>();
  private readonly boards = new Map<string, Board>();
  private lookups = { second: 0, count: 0 };

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly publicUrl: string,
  ) {}

  private get displays() {
    return new DisplaysRepository(this.db);
  }

  async list(departmentId: string): Promise<DisplayDto[]> {
    const rows = await this.displays.list(departmentId);
    if (!rows) throw notFound('Department', departmentId);
    return rows.map(toDisplayDto);
  }

  async create(caller: Caller, departmentId: string, name: string): Promise<CreatedDisplayDto> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const row = await this.displays.create(departmentId, name.trim() || name, hashDisplayToken(token), caller.user.id, DISPLAYS_PER_OFFICE, this.clock.now());
    if (row === undefined) throw notFound('Department', departmentId);
    if (row === 'full') throw new AppError('TOO_MANY_DISPLAYS', `An office may have at most ${DISPLAYS_PER_OFFICE} lobby displays`);
    return { display: toDisplayDto(row), token, url: `${this.publicUrl.replace(/\/$/, '')}/display/${token}` };
  }

  async revoke(id: string): Promise<void> {
    const tokenHash = await this.displays.revoke(id);
    if (tokenHash === undefined) throw notFound('Display', id);
    this.tokens.delete(tokenHash);
  }

  /** The office of a token: kept for TOKEN_TRUST_MS; lookups of tokens not kept are limited per second (429 beyond). */
  private async officeOf(token: string): Promise<string> {
    if (!TOKEN_SHAPE.test(token)) throw notFound('Display');
    const hash = hashDisplayToken(token);
    const now = this.clock.now().getTime();
    const kept = this.tokens.get(hash);
    if (kept && kept.until > now) {
      if (kept.departmentId === undefined) throw notFound('Display');
      return kept.departmentId;
    }
    const second = Math.floor(now / 1000);
    if (this.lookups.second !== second) this.lookups = { second, count: 0 };
    if (++this.lookups.count > TOKEN_LOOKUPS_PER_SECOND)
      throw new AppError('TOO_MANY_REQUESTS', 'Too many display requests at once; retry shortly', { retryAfter: 1 });
    const departmentId = await this.displays.officeOf(hash);
    this.tokens.delete(hash);
    lruGet(this.tokens, hash, TOKENS_KEPT, () => ({ departmentId, until: now + TOKEN_TRUST_MS }));
    if (departmentId === undefined) throw notFound('Display');
    return departmentId;
  }

  /** The board of the token's office for the current minute, and its ETag. */
  async board(token: string): Promise<{ body: DisplayBoardDto; etag: string }> {
    const departmentId = await this.officeOf(token);
    const now = this.clock.now();
    const minute = Math.floor(now.getTime() / 60_000);
    const kept = this.boards.get(departmentId);
    if (kept && kept.minute === minute) return kept.answer;
    const board: Board = { minute, answer: this.compute(departmentId, new Date(minute * 60_000)) };
    this.boards.delete(departmentId);
    lruGet(this.boards, departmentId, BOARDS_KEPT, () => board);
    board.answer.catch(() => {
      if (this.boards.get(departmentId) === board) this.boards.delete(departmentId);
    });
    return board.answer;
  }

  private async compute(departmentId: string, at: Date): Promise<{ body: DisplayBoardDto; etag: string }> {
    const people = new PeopleRepository(this.db);
    const office = await people.office(departmentId);
    if (!office) throw notFound('Display');
    const date = localDate(at, office.timeZone);
    const window = { start: startOfLocalDate(date, office.timeZone), end: startOfLocalDate(nextDate(date), office.timeZone) };
    const settings = office;
    const [desks, bookings] = await Promise.all([people.desksOf(departmentId), people.bookings(departmentId, window, NO_ONE, PEOPLE_IN_MAX)]);
    const occupied = new Map(
      occupantsOf(bookings, (row) => showsName({ kind: 'display' }, { ...row, sharesTeam: false }, settings.nameVisibility, 'desk')).map((desk) => [
        desk.deskId,
        desk.occupants,
      ]),
    );
    const instant = at.toISOString();
    const board: DisplayBoardDto['desks'] = desks.map((desk) => {
      const todays = occupied.get(desk.id) ?? [];
      const bookedNow = todays.some((booking) => booking.startTime <= instant && booking.endTime > instant);
      return {
        id: desk.id,
        name: desk.name,
        roomId: desk.roomId,
        roomName: desk.roomName,
        position: desk.x === null ? null : { x: desk.x, y: desk.y!, width: desk.width!, height: desk.height!, rotation: desk.rotation ?? 0 },
        state: bookedNow ? 'BOOKED' : 'FREE',
        bookings: todays.map((booking) => ({ startTime: booking.startTime, endTime: booking.endTime, name: booking.name })),
      };
    });
    const booked = board.filter((desk) => desk.state === 'BOOKED').length;
    const body: DisplayBoardDto = {
      department: { id: departmentId, location: office.location, building: office.building, floor: office.floor },
      timeZone: office.timeZone,
      date,
      generatedAt: instant,
      names: settings.nameVisibility === 'everyone',
      free: board.length - booked,
      booked,
      desks: board,
    };
    // Over what the board shows, not the minute it was computed: a board that did not change answers 304.
    const etag = `"db-${createHash('sha256')
      .update(JSON.stringify({ ...body, generatedAt: undefined }))
      .digest('base64url')
      .slice(0, 27)}"`;
    return { body, etag };
  }
}
