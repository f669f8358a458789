import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.js';
import { driverError } from '../../src/db/errors.js';
import { SEED_ADMIN_EMAIL, SEEDED_USER_PATTERN } from '../seed/seed.js';

/** The User-Agent of every sign-in the bench makes, so that their sessions can be removed afterwards. */
export const BENCH_USER_AGENT = 'deskbook-bench';
/** The room of 100 desks the bench adds for the desk-list scenario (the seed's rooms hold about 10). */
export const BIG_ROOM_NAME = 'Bench hall (100 desks)';
export const BIG_ROOM_DESKS = 100;

export const DATASET_TABLES = ['departments', 'rooms', 'desks', 'equipment', 'users', 'reservations', 'reports', 'sessions'] as const;
export type DatasetCounts = Record<(typeof DATASET_TABLES)[number], number>;

export interface SeededUser {
  id: string;
  email: string;
}

export interface Dataset {
  counts: DatasetCounts;
  postgresVersion: string;
  users: SeededUser[];
  /** FLEX desks in available rooms: any user could book them. */
  bookableDeskIds: string[];
  /** Criteria that match exactly one seeded department. */
  department: { location: string; building: string; floor: number };
}

/** A failure the bench reports in one line (no stack): an unusable database, a refused sign-in. */
export class BenchFailure extends Error {
  override name = 'BenchFailure';
}

const rows = <T>(db: Database, query: SQL) => queryRows<T>(db, query);

/** What the scenarios need from the seeded database; refuses a missing or empty one. `hint` says how to fill it. */
export async function readDataset(db: Database, where: string, hint: string): Promise<Dataset> {
  let version: string;
  try {
    version = (await rows<{ version: string }>(db, sql`select version()`))[0]!.version;
  } catch (error) {
    if (driverError(error)?.code === '3D000') throw new BenchFailure(`The database of ${where} does not exist. Create it (createdb), then fill it: ${hint}`);
    throw new BenchFailure(`Cannot reach PostgreSQL at ${where}: ${(error as Error).message}`);
  }
  const tables = await rows(db, sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_name = 'desks'`);
  if (tables.length === 0) throw new BenchFailure(`The database at ${where} has no Deskbook tables. ${hint}`);

  const counts = {} as DatasetCounts;
  for (const table of DATASET_TABLES) counts[table] = (await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;
  const users = await rows<SeededUser>(db, sql`select id, email from users where lower(email) ~ ${SEEDED_USER_PATTERN} and enabled order by email`);
  const [admin] = await rows(db, sql`select 1 from users where lower(email) = ${SEED_ADMIN_EMAIL} and role = 'ADMIN' and enabled`);
  const bookable = await rows<{ id: string }>(
    db,
    sql`select d.id from desks d join rooms r on r.id = d.room_id where d.type = 'FLEX' and r.available and r.name <> ${BIG_ROOM_NAME} order by d.id`,
  );
  // Search criteria are substrings (location, building) and an exact floor: the first department
  // no other one also matches, e.g. "Friedrichstraße 68" floor 1 when there is no annex of it on floor 1.
  const [department] = await rows<Dataset['department']>(
    db,
    sql`select d.location, d.building, d.floor from departments d
        where not exists (select 1 from departments o where o.id <> d.id and o.floor = d.floor
                            and strpos(lower(o.location), lower(d.location)) > 0 and strpos(lower(o.building), lower(d.building)) > 0)
        order by d.location, d.building, d.floor, d.id limit 1`,
  );
  if (counts.desks === 0 || users.length === 0 || !admin || bookable.length === 0 || !department) {
    throw new BenchFailure(
      `The database at ${where} is not seeded (desks: ${counts.desks}, seeded users: ${users.length}, seeded admin: ${admin ? 'yes' : 'no'}). ${hint}`,
    );
  }
  return { counts, postgresVersion: version, users, bookableDeskIds: bookable.map((row) => row.id), department };
}

/**
 * Adds a room of BIG_ROOM_DESKS desks (FLEX, no equipment, never booked) to the first department,
 * for the desk-list scenario; removeBenchRows removes it again.
 */
export async function addBigRoom(db: Database): Promise<{ departmentId: string; roomId: string }> {
  const [first] = await rows<{ id: string }>(db, sql`select id from departments order by location, building, floor, id limit 1`);
  if (!first) throw new BenchFailure('The database has no departments.');
  const roomId = randomUUID();
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into rooms (id, department_id, name, available) values (${roomId}, ${first.id}, ${BIG_ROOM_NAME}, true)`);
    await tx.execute(
      sql`insert into desks (room_id, name, type) select ${roomId}, 'Bench desk ' || lpad(n::text, 3, '0'), 'FLEX' from generate_series(1, ${BIG_ROOM_DESKS}) as n`,
    );
  });
  return { departmentId: first.id, roomId };
}

/** Reservations starting at or after `from` (the bench books only there), the bench's room and its sign-ins. */
export async function removeBenchRows(db: Database, from: Date): Promise<void> {
  await db.execute(sql`delete from reservations where start_time >= ${from.toISOString()}::timestamptz`);
  // The series scenario's series (their occurrences are among the reservations above).
  await db.execute(sql`delete from reservation_series where first_start >= ${from.toISOString()}::timestamptz`);
  await db.execute(sql`delete from rooms where name = ${BIG_ROOM_NAME}`);
  await db.execute(sql`delete from sessions where user_agent = ${BENCH_USER_AGENT}`);
  // The sign-in scenario counts thousands of attempts against the loopback address.
  await db.execute(sql`delete from login_throttle where key in ('address:127.0.0.1', 'address:::1', 'address:::ffff:127.0.0.1')`);
}

export interface OverlapCounts {
  reservations: number;
  /** Pairs of reservations of one desk whose time ranges overlap. */
  deskOverlaps: number;
  /** Pairs of one user's exclusive reservations whose time ranges overlap. */
  userOverlaps: number;
}

/** Checks, independently of the exclusion constraints, that no two of the bench's reservations collide. */
export async function countOverlaps(db: Database, from: Date): Promise<OverlapCounts> {
  const since = from.toISOString();
  const [row] = await rows<OverlapCounts>(
    db,
    sql`
    with mine as (select id, desk_id, user_id, user_exclusive, tstzrange(start_time, end_time, '[)') as span
                  from reservations where start_time >= ${since}::timestamptz)
    select (select count(*)::int from mine) as reservations,
           (select count(*)::int from mine a join mine b on a.desk_id = b.desk_id and a.id < b.id and a.span && b.span) as "deskOverlaps",
           (select count(*)::int from mine a join mine b on a.user_id = b.user_id and a.id < b.id and a.span && b.span
             where a.user_exclusive and b.user_exclusive) as "userOverlaps"`,
  );
  return row!;
}
