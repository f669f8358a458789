import postgres, { type Sql } from 'postgres';
import { SEED_ADMIN_EMAIL, SEEDED_USER_PATTERN } from '../seed/seed.js';

/** The User-Agent of every sign-in the bench makes, so that their sessions can be removed afterwards. */
export const BENCH_USER_AGENT = 'deskbook-bench';

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
}

/** A failure the bench reports in one line (no stack): an unusable database, a refused sign-in. */
export class BenchFailure extends Error {
  override name = 'BenchFailure';
}

export function openBenchDatabase(url: string): Sql {
  return postgres(url, { max: 2, onnotice: () => {}, connect_timeout: 10, connection: { application_name: 'deskbook-bench', TimeZone: 'UTC' } });
}

const seedHint = (url: string) => `Fill it with: DATABASE_URL=${url} npm run seed -- --profile large`;

/** What the scenarios need from the seeded database; refuses a missing or empty one. */
export async function readDataset(sql: Sql, url: string): Promise<Dataset> {
  let version: string;
  try {
    version = (await sql<{ version: string }[]>`select version()`)[0]!.version;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '3D000')
      throw new BenchFailure(`The database of ${url} does not exist. Create it (createdb), then fill it: DATABASE_URL=${url} npm run seed -- --profile large`);
    throw new BenchFailure(`Cannot reach PostgreSQL at ${url}: ${(error as Error).message}`);
  }
  const tables = await sql<{ name: string }[]>`select table_name as name from information_schema.tables where table_schema = 'public' and table_name = 'desks'`;
  if (tables.length === 0) throw new BenchFailure(`The database at ${url} has no Deskbook tables. ${seedHint(url)}`);

  const counts = Object.fromEntries(
    await Promise.all(DATASET_TABLES.map(async (table) => [table, (await sql<{ n: number }[]>`select count(*)::int as n from ${sql(table)}`)[0]!.n] as const)),
  ) as DatasetCounts;
  const users = await sql<SeededUser[]>`select id, email from users where lower(email) ~ ${SEEDED_USER_PATTERN} and enabled order by email`;
  const [admin] = await sql`select 1 from users where lower(email) = ${SEED_ADMIN_EMAIL} and role = 'ADMIN' and enabled`;
  const bookable = await sql<{ id: string }[]>`
    select d.id from desks d join rooms r on r.id = d.room_id where d.type = 'FLEX' and r.available order by d.id`;
  if (counts.desks === 0 || users.length === 0 || !admin || bookable.length === 0) {
    throw new BenchFailure(
      `The database at ${url} is not seeded (desks: ${counts.desks}, seeded users: ${users.length}, seeded admin: ${admin ? 'yes' : 'no'}). ${seedHint(url)}`,
    );
  }
  return { counts, postgresVersion: version, users, bookableDeskIds: bookable.map((row) => row.id) };
}

/** Reservations starting at or after `from` (the bench books only there) and the bench's sign-ins. */
export async function removeBenchRows(sql: Sql, from: Date): Promise<{ reservations: number; sessions: number }> {
  const reservations = await sql`delete from reservations where start_time >= ${from.toISOString()}::timestamptz`;
  // The calendar trigger remembers deleted reservations (tombstones) and queues their mails: not for the bench's.
  await sql`delete from calendar_events where start_time >= ${from.toISOString()}::timestamptz`;
  await sql`delete from calendar_outbox o where not exists (select 1 from reservations r where r.id = o.reservation_id)`;
  const sessions = await sql`delete from sessions where user_agent = ${BENCH_USER_AGENT}`;
  // The sign-in scenario counts thousands of attempts against the loopback address.
  await sql`delete from login_throttle where key in ('address:127.0.0.1', 'address:::1', 'address:::ffff:127.0.0.1')`;
  return { reservations: reservations.count, sessions: sessions.count };
}

export interface OverlapCounts {
  reservations: number;
  /** Pairs of reservations of one desk whose time ranges overlap. */
  deskOverlaps: number;
  /** Pairs of one user's exclusive reservations whose time ranges overlap. */
  userOverlaps: number;
}

/** Checks, independently of the exclusion constraints, that no two of the bench's reservations collide. */
export async function countOverlaps(sql: Sql, from: Date): Promise<OverlapCounts> {
  const since = from.toISOString();
  const [row] = await sql<OverlapCounts[]>`
    with mine as (select id, desk_id, user_id, user_exclusive, tstzrange(start_time, end_time, '[)') as span
                  from reservations where start_time >= ${since}::timestamptz)
    select (select count(*)::int from mine) as reservations,
           (select count(*)::int from mine a join mine b on a.desk_id = b.desk_id and a.id < b.id and a.span && b.span) as "deskOverlaps",
           (select count(*)::int from mine a join mine b on a.user_id = b.user_id and a.id < b.id and a.span && b.span
             where a.user_exclusive and b.user_exclusive) as "userOverlaps"`;
  return row!;
}
