/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of every statement the heavy operations send, against the
 * PostgreSQL database in DATABASE_URL (meant for the large dataset, see docs/query-plans.md).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/deskbook_large npm run explain
 *   npm run explain -- --only search-rooms,stats     # some scenarios
 *   npm run explain -- --summary                     # execution times only, no plans
 *   npm run explain -- --generic                     # the generic plans of prepared statements
 *   npm run explain -- --time 30                     # also time each operation 30 times, as the server runs it
 *
 * The statements are captured from the services themselves (a drizzle logger records each one
 * with its parameters), so what is explained is exactly what the server sends. Everything runs
 * in transactions that are rolled back: the booking scenario leaves no reservation behind.
 */
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { openDatabase, type Database } from '../src/db/client.js';
import { primaryOnly } from '../src/db/replica.js';
import * as schema from '../src/db/schema.js';
import { InventoryService } from '../src/modules/inventory/inventory.service.js';
import { ReservationsService } from '../src/modules/reservations/reservations.service.js';
import { SearchService } from '../src/modules/search/search.service.js';
import { StatsService } from '../src/modules/stats/stats.service.js';
import type { Caller } from '../src/identity/caller.js';
import { systemClock } from '../src/shared/clock.js';
import { nextWorkdayWindow } from './bench/scenarios.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Statement {
  query: string;
  params: unknown[];
}

/** What a scenario needs from the dataset: a user, an admin, a bookable desk, the benchmark's search window. */
interface Fixture {
  user: Caller;
  admin: Caller;
  bookableDeskId: string;
  window: { start: string; end: string };
  location: string;
}

interface Scenario {
  id: string;
  title: string;
  run(db: Database, fixture: Fixture): Promise<unknown>;
}

const rules = { maxLengthMs: DAY, minLengthMs: 15 * 60_000, maxFuture: 200, horizonMs: 90 * DAY, onePerUser: true };

const SCENARIOS: Scenario[] = [
  {
    id: 'search-rooms',
    title: 'POST /api/search/rooms: free 09:00–17:00 tomorrow, department location, DOCKING_STATION',
    run: (db, f) =>
      new SearchService(primaryOnly(db)).rooms(
        f.user,
        { department: { location: f.location }, equipment: [{ type: 'DOCKING_STATION' }], reservation: { free: f.window } },
        {},
      ),
  },
  {
    id: 'search-rooms-partly',
    title: 'POST /api/search/rooms: the same, partlyReserved with partlyBetween PT2H',
    run: (db, f) =>
      new SearchService(primaryOnly(db)).rooms(
        f.user,
        {
          department: { location: f.location },
          equipment: [{ type: 'DOCKING_STATION' }],
          reservation: { free: { ...f.window, partlyReserved: true, partlyBetween: 'PT2H' } },
        },
        {},
      ),
  },
  {
    id: 'search-rooms-full',
    title: 'POST /api/search/rooms: full 09:00–17:00 tomorrow, department location, DOCKING_STATION',
    run: (db, f) =>
      new SearchService(primaryOnly(db)).rooms(
        f.user,
        { department: { location: f.location }, equipment: [{ type: 'DOCKING_STATION' }], reservation: { full: f.window } },
        {},
      ),
  },
  {
    id: 'search-departments',
    title: 'POST /api/search/departments: available rooms, MONITOR, free 09:00–17:00 tomorrow',
    run: (db, f) =>
      new SearchService(primaryOnly(db)).departments(
        f.user,
        { room: { available: true }, equipment: [{ type: 'MONITOR' }], reservation: { free: f.window } },
        {},
      ),
  },
  {
    id: 'search-departments-location',
    title: 'POST /api/search/departments: department location, DOCKING_STATION, free 09:00–17:00 tomorrow',
    run: (db, f) =>
      new SearchService(primaryOnly(db)).departments(
        f.user,
        { department: { location: f.location }, equipment: [{ type: 'DOCKING_STATION' }], reservation: { free: f.window } },
        {},
      ),
  },
  {
    id: 'search-reports',
    title: 'POST /api/search/reports: title contains "monitor"',
    run: (db, f) => new SearchService(primaryOnly(db)).reports(f.user, { title: 'monitor' }, {}),
  },
  {
    id: 'search-reports-rare',
    title: 'POST /api/search/reports: title contains "flicker"',
    run: (db, f) => new SearchService(primaryOnly(db)).reports(f.user, { title: 'flicker' }, {}),
  },
  {
    id: 'stats',
    title: 'GET /api/stats (computed, not cached)',
    run: (db) => new StatsService(db, systemClock, primaryOnly(db)).statistics(),
  },
  {
    id: 'reservations',
    title: 'GET /api/reservation as a USER (first page)',
    run: (db, f) => new ReservationsService(db, systemClock, rules, primaryOnly(db)).list(f.user, {}),
  },
  {
    id: 'departments',
    title: 'GET /api/departments (page of 20)',
    run: (db) => new InventoryService(db, systemClock).listDepartments({ page: 0, size: 20 }),
  },
  {
    id: 'book',
    title: 'POST /api/reservation as an ADMIN for a user (rolled back)',
    run: (db, f) => {
      // Two years ahead: past anything the seed books (six months), so the insert succeeds.
      const start = Date.UTC(new Date().getUTCFullYear() + 2, 0, 5, 9);
      return new ReservationsService(db, systemClock, rules, primaryOnly(db)).create(f.admin, {
        deskId: f.bookableDeskId,
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + HOUR).toISOString(),
        userId: f.user.user.id,
      });
    },
  },
];

async function loadFixture(db: Database): Promise<Fixture> {
  const { users, reservations, desks, rooms, departments } = schema;
  // A USER who holds reservations, as the benchmark's signed-in users do.
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.role, 'USER'), sql`exists (select 1 from ${reservations} where ${reservations.userId} = ${users.id})`))
    .orderBy(users.email)
    .limit(1);
  const [admin] = await db.select().from(users).where(eq(users.role, 'ADMIN')).orderBy(users.email).limit(1);
  const [desk] = await db
    .select({ id: desks.id })
    .from(desks)
    .innerJoin(rooms, eq(rooms.id, desks.roomId))
    .where(and(eq(desks.type, 'FLEX'), eq(rooms.available, true)))
    .orderBy(desks.id)
    .limit(1);
  // The location with the most departments (Berlin in the large seed, which the benchmark searches).
  const [department] = await db
    .select({ location: departments.location })
    .from(departments)
    .groupBy(departments.location)
    .orderBy(sql`count(*) desc`, departments.location)
    .limit(1);
  if (!user || !admin || !desk || !department)
    throw new Error('The database holds no users, admin, bookable desk or department: seed it first (npm run seed -- --profile large)');
  return {
    user: { user, sessionId: '00000000-0000-0000-0000-000000000000' },
    admin: { user: admin, sessionId: '00000000-0000-0000-0000-000000000000' },
    bookableDeskId: desk.id,
    window: nextWorkdayWindow(new Date()),
    location: department.location,
  };
}

class Rollback extends Error {}

/** Runs `work` in a savepoint that is always rolled back, and answers its result. */
async function inSavepoint<T>(transaction: postgres.TransactionSql, work: (savepoint: postgres.TransactionSql) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await transaction
    .savepoint(async (savepoint) => {
      result = await work(savepoint);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result as T;
}

const oneLine = (query: string) => query.replace(/\s+/g, ' ').trim();
const executionMs = (plan: string) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);

/** A parameter as an SQL literal, for EXECUTE of a prepared statement. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

/**
 * The plan of one statement: the custom plan PostgreSQL makes for these parameter values or, with
 * `generic`, the generic plan a prepared statement may switch to after five executions (the
 * server prepares every statement it sends outside transactions).
 */
async function planOf(transaction: postgres.TransactionSql, statement: Statement, generic: boolean): Promise<string> {
  let rows: { 'QUERY PLAN': string }[];
  if (generic) {
    await transaction.unsafe('set local plan_cache_mode = force_generic_plan');
    await transaction.unsafe(`prepare deskbook_explain as ${statement.query}`);
    const args = statement.params.length > 0 ? `(${statement.params.map(literal).join(', ')})` : '';
    rows = await transaction.unsafe(`explain (analyze, buffers) execute deskbook_explain${args}`);
    await transaction.unsafe('deallocate deskbook_explain');
  } else {
    rows = await transaction.unsafe(`explain (analyze, buffers) ${statement.query}`, statement.params as never[]);
  }
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** Each statement of the scenario, captured while the service runs, then explained (all rolled back). */
async function explain(client: postgres.Sql, scenario: Scenario, fixture: Fixture, options: { summary: boolean; generic: boolean }): Promise<void> {
  const captured: Statement[] = [];
  const db = drizzle(client, { schema, logger: { logQuery: (query, params) => captured.push({ query, params }) } });
  await db
    .transaction(async (tx) => {
      await scenario.run(tx as unknown as PgDatabase<PgQueryResultHKT, typeof schema>, fixture);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  console.log(`\n=== ${scenario.id}: ${scenario.title}`);
  let total = 0;
  await client
    .begin(async (transaction) => {
      for (const [index, statement] of captured.entries()) {
        // Warm the cache once, as a busy server would have it, then measure; each run in a
        // savepoint rolled back, so that an insert is measured on the same state both times.
        await inSavepoint(transaction, (savepoint) => planOf(savepoint, statement, options.generic));
        const plan = await inSavepoint(transaction, (savepoint) => planOf(savepoint, statement, options.generic));
        const ms = executionMs(plan);
        total += ms;
        if (options.summary) {
          console.log(`  [${index + 1}] ${ms.toFixed(2)} ms  ${oneLine(statement.query).slice(0, 110)}`);
        } else {
          console.log(`\n--- [${index + 1}] ${oneLine(statement.query)}\n    params: ${JSON.stringify(statement.params)}\n${plan}`);
        }
      }
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  console.log(`  total execution time of ${captured.length} statement(s): ${total.toFixed(2)} ms`);
}

/** Wall time of the whole operation as the server runs it: prepared statements, one after another. */
async function time(db: Database, scenario: Scenario, fixture: Fixture, runs: number): Promise<void> {
  if (scenario.id === 'book') return;
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await scenario.run(db, fixture);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(1);
  console.log(`  ${scenario.id}: ${runs} runs, median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      summary: { type: 'boolean', default: false },
      generic: { type: 'boolean', default: false },
      time: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(`npm run explain -- [--only ${SCENARIOS.map((s) => s.id).join(',')}] [--summary] [--generic] [--time N]`);
    return;
  }
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres'))
    throw new Error('Set DATABASE_URL to the PostgreSQL database to explain, e.g. postgres://postgres@127.0.0.1:5432/deskbook_large');
  const only = values.only?.split(',').map((id) => id.trim());
  const unknown = only?.filter((id) => !SCENARIOS.some((scenario) => scenario.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`Unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  const scenarios = SCENARIOS.filter((scenario) => !only || only.includes(scenario.id));

  const client = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: 'deskbook-explain', TimeZone: 'UTC' } });
  const handle = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    const fixture = await loadFixture(handle.db);
    console.log(`window ${fixture.window.start} – ${fixture.window.end}, location "${fixture.location}", user ${fixture.user.user.email}`);
    for (const scenario of scenarios) await explain(client, scenario, fixture, { summary: values.summary, generic: values.generic });
    const runs = values.time === undefined ? 0 : Number(values.time);
    if (runs > 0) {
      console.log(`\nWall time per operation (the server's own connection settings, prepared statements):`);
      for (const scenario of scenarios) await time(handle.db, scenario, fixture, runs);
    }
  } finally {
    await client.end({ timeout: 5 });
    await handle.close();
  }
}

await main();
