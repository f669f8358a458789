import { createHash } from 'node:crypto';
import type { DatabaseHandle } from '../../src/db/client.js';
import { hashPassword } from '../../src/identity/password-hashing.js';
import { execute, inTransaction, type BulkSession, type CopyValue } from './bulk.js';
import { layoutPlan, renderPlanImage } from './floor-plan.js';
import {
  buildWorld,
  departmentRows,
  deskRows,
  equipmentRows,
  reportRows,
  reservationRows,
  roomRows,
  userRows,
  type SeedSizes,
  type World,
} from './generate.js';

export type { SeedSizes } from './generate.js';

export const PROFILES = {
  large: { departments: 50, rooms: 1_000, desks: 10_000, equipment: 20_000, users: 20_000, reservations: 1_000_000, reports: 50_000 },
  // About a hundredth, with a few more departments and rooms so the UI has something to browse.
  small: { departments: 5, rooms: 20, desks: 100, equipment: 200, users: 200, reservations: 10_000, reports: 500 },
} as const satisfies Record<string, SeedSizes>;
export type ProfileName = keyof typeof PROFILES;

/** Every seeded account, the admin included, signs in with this password. */
export const SEED_PASSWORD = 'deskbook-seed';
export const SEED_ADMIN_EMAIL = 'admin@example.test';
/** The seeded users' addresses (user00001@example.test …): what --reset deletes. */
export const SEEDED_USER_PATTERN = '^user[0-9]+@example\\.test$';

/** Tables that must be empty before seeding; all of them are emptied by `reset`. */
const SEEDED_TABLES = ['departments', 'rooms', 'desks', 'equipment', 'reservations', 'reports'] as const;
/** Kept by the reservations trigger (docs/behaviour.md#calendars); emptied with the reservations. */
const CALENDAR_TABLES = ['calendar_events'] as const;

export class SeedRefusedError extends Error {
  override name = 'SeedRefusedError';
}

export interface SeedOptions {
  sizes: SeedSizes;
  /** Seed of the random generator: the same seed, sizes and `now` give the same rows. */
  seed?: number;
  /** Empty the seeded tables and delete the seeded users first (see `resetSeededData`). */
  reset?: boolean;
  /** Reservations lie around it; nothing is created after it. */
  now?: Date;
  log?: (line: string) => void;
}

export interface SeedStep {
  /** A table, or what else took time (re-adding constraints, vacuum). */
  table: string;
  /** Rows written; null for steps that write none. */
  rows: number | null;
  seconds: number;
}

type Step = (table: string, work: () => Promise<number | null>) => Promise<void>;

export interface SeedResult {
  steps: SeedStep[];
  seconds: number;
  admin: { email: string; created: boolean };
}

const elapsedSince = (started: number) => (performance.now() - started) / 1000;

function validate(sizes: SeedSizes): void {
  for (const [table, count] of Object.entries(sizes)) {
    if (!Number.isSafeInteger(count) || count < 0) throw new SeedRefusedError(`size of ${table} must be a whole number ≥ 0 (got ${count})`);
  }
  for (const table of ['departments', 'rooms', 'desks', 'users'] as const) {
    if (sizes[table] < 1) throw new SeedRefusedError(`size of ${table} must be at least 1`);
  }
}

async function refuseUnlessEmpty(session: BulkSession): Promise<void> {
  const counts = SEEDED_TABLES.map((table) => `(select count(*) from ${table})::int as ${table}`).join(', ');
  const [row] = await session.query<Record<string, number>>(`select ${counts}, (select count(*) from users where lower(email) ~ $1)::int as seeded_users`, [
    SEEDED_USER_PATTERN,
  ]);
  const filled = Object.entries(row!).filter(([, count]) => count > 0);
  if (filled.length > 0) {
    const listed = filled.map(([table, count]) => `${table.replace('_', ' ')}: ${count}`).join(', ');
    throw new SeedRefusedError(`the database is not empty (${listed}); seeding fills an empty database only. --reset removes these rows first.`);
  }
}

/**
 * Removes everything a seed writes: every row of departments, rooms, desks, equipment,
 * department images, floor plans, reservations and reports (also those not seeded), and the users whose
 * e-mail is userNNNNN@example.test with their sessions, avatars and password links. Other
 * users (admin@example.test included) stay. The booking policies name the places removed
 * (areas, rules, closures, approval requirements: docs/policies.md), so they go too (CASCADE),
 * with the approval state of the reservations.
 */
async function resetSeededData(session: BulkSession): Promise<number> {
  // With the tables that reference them (attendance: docs/behaviour.md#attendance).
  await session.query(
    `truncate ${[...SEEDED_TABLES, 'department_images', 'floor_plan_positions', ...CALENDAR_TABLES, 'department_settings', 'attendance', 'reservation_series', 'reservation_approvals'].join(', ')} cascade`,
  );
  // Their invitation mails still queued (docs/architecture.md#the-outbox); other mails stay.
  await session.query(`delete from outbox where kind = 'calendar.invitation'`);
  const deleted = await session.query<{ id: string }>(`delete from users where lower(email) ~ $1 returning id`, [SEEDED_USER_PATTERN]);
  return deleted.length;
}

/**
 * Fills an empty database with a profile's worth of inventory, users, reservations and reports
 * in one transaction (all or nothing), then refreshes the planner statistics. Migrations must
 * have run. Throws SeedRefusedError when the database already holds such rows and `reset` is off.
 */
export async function seed(handle: DatabaseHandle, options: SeedOptions): Promise<SeedResult> {
  const { sizes, seed: randomSeed = 1, reset = false, now = new Date(), log = () => {} } = options;
  validate(sizes);
  const started = performance.now();
  const steps: SeedStep[] = [];
  const step: Step = async (table, work) => {
    const stepStarted = performance.now();
    const rows = await work();
    const seconds = elapsedSince(stepStarted);
    steps.push({ table, rows, seconds });
    const count = rows === null ? '' : `${rows.toLocaleString('en-US')} rows`;
    log(`${table.padEnd(24)} ${count.padStart(15)} ${seconds.toFixed(1).padStart(7)} s`);
  };

  // One argon2 hash shared by every seeded account: hashing 20,000 passwords would take minutes.
  const passwordHash = await hashPassword(SEED_PASSWORD);
  const world = buildWorld(sizes, randomSeed, now);

  const admin = await inTransaction(handle, async (session) => {
    if (reset) {
      const deletedUsers = await resetSeededData(session);
      log(`reset: emptied ${[...SEEDED_TABLES, 'department_images', 'floor_plan_positions'].join(', ')}; deleted ${deletedUsers} seeded users`);
    } else {
      await refuseUnlessEmpty(session);
    }

    const copy = (table: string, columns: string[], rows: Iterable<readonly CopyValue[]>) => step(table, () => session.copy(table, columns, rows));
    await copy('departments', ['id', 'location', 'building', 'floor', 'created_at', 'modified_at'], departmentRows(world));
    await copy('rooms', ['id', 'department_id', 'name', 'available', 'created_at', 'modified_at'], roomRows(world));
    await copy('desks', ['id', 'room_id', 'name', 'type', 'created_at', 'modified_at'], deskRows(world));
    await step('floor plans', () => placeOnFloorPlans(session, world, now));
    await copy('equipment', ['id', 'desk_id', 'name', 'description', 'type', 'created_at', 'modified_at'], equipmentRows(world));
    await copy(
      'users',
      ['id', 'email', 'first_name', 'last_name', 'role', 'enabled', 'ldap', 'password_hash', 'has_avatar', 'created_at', 'modified_at'],
      userRows(world, passwordHash),
    );
    const createdAdmin = await session.query<{ id: string }>(
      `insert into users (email, first_name, last_name, role, enabled, ldap, password_hash, created_at, modified_at)
       values ($1, 'Seed', 'Admin', 'ADMIN', true, false, $2, $3::timestamptz, $3::timestamptz)
       on conflict ((lower(email))) do nothing returning id`,
      [SEED_ADMIN_EMAIL, passwordHash, now.toISOString()],
    );
    // The calendar trigger would write two rows per reservation (and queue an invitation mail for
    // each): off for the load, and the calendar rows written in one statement after it, mail-less.
    await session.query('alter table reservations disable trigger reservations_calendar');
    await withConstraintsRebuilt(session, 'reservations', step, () =>
      copy(
        'reservations',
        ['id', 'user_id', 'desk_id', 'start_time', 'end_time', 'type', 'user_exclusive', 'created_at', 'modified_at'],
        withProgress(reservationRows(world, sizes.reservations, randomSeed, now), sizes.reservations, log),
      ),
    );
    await session.query('alter table reservations enable trigger reservations_calendar');
    await step('calendar_events', async () => {
      const rows = await session.query<{ n: number }>(
        `with written as (
           insert into calendar_events (reservation_id, user_id, desk_id, start_time, end_time, location, sequence, changed_at)
           select r.id, r.user_id, r.desk_id, r.start_time, r.end_time,
                  concat_ws(' · ', dep.location, dep.building, 'Floor ' || dep.floor, rm.name, d.name), 0, r.modified_at
           from reservations r join desks d on d.id = r.desk_id join rooms rm on rm.id = d.room_id join departments dep on dep.id = rm.department_id
           returning 1)
         select count(*)::int as n from written`,
      );
      return rows[0]!.n;
    });
    await copy(
      'reports',
      ['id', 'title', 'description', 'reported_by', 'department_id', 'room_id', 'desk_id', 'equipment_id', 'created_at'],
      reportRows(world, sizes.reports, randomSeed, now),
    );
    return { email: SEED_ADMIN_EMAIL, created: createdAdmin.length === 1 };
  });

  // Fresh statistics for the planner, and a visibility map so index-only scans work at once.
  await step('vacuum analyze', async () => {
    await execute(handle, `vacuum (analyze) ${[...SEEDED_TABLES, 'users', 'floor_plan_positions', 'calendar_events'].join(', ')}`);
    return null;
  });
  const seconds = elapsedSince(started);
  const written = steps.reduce((sum, s) => sum + (s.rows ?? 0), 0);
  log(`seeded ${written.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s`);
  return { steps, seconds, admin };
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Loads `table` with its foreign keys, exclusion constraints and plain indexes dropped, then
 * adds them back from their own catalog definitions in the same transaction; adding a
 * constraint checks every row, so the data is held to exactly the same rules, and building an
 * index in one go is cheaper than growing it row by row. Measured on the large profile
 * (1,000,000 reservations, PostgreSQL 15, 2 busy cores): COPY with the two GiST exclusion
 * constraints and both foreign keys in place took 129–157 s; COPY without them plus re-adding
 * them 64–100 s.
 */
async function withConstraintsRebuilt(session: BulkSession, table: string, step: Step, load: () => Promise<void>): Promise<void> {
  const constraints = await session.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
     where conrelid = $1::regclass and contype in ('f', 'x') order by conname`,
    [table],
  );
  // Indexes that back no constraint of the table (the primary key's stays).
  const indexes = await session.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition from pg_index i
     where i.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conrelid = i.indrelid and c.conindid = i.indexrelid)
     order by 1`,
    [table],
  );
  if (constraints.length > 0) {
    await session.query(`alter table ${table} ${constraints.map((c) => `drop constraint ${quoteIdentifier(c.name)}`).join(', ')}`);
  }
  if (indexes.length > 0) await session.query(`drop index ${indexes.map((index) => index.name).join(', ')}`);
  await load();
  await step(`${table} indexes`, async () => {
    for (const index of indexes) await session.query(index.definition);
    return null;
  });
  await step(`${table} constraints`, async () => {
    for (const constraint of constraints) {
      await session.query(`alter table ${table} add constraint ${quoteIdentifier(constraint.name)} ${constraint.definition}`);
    }
    return null;
  });
}

/** Passes the rows through, logging every tenth of the way for the long tables. */
function* withProgress(rows: Iterable<readonly CopyValue[]>, expected: number, log: (line: string) => void): Generator<readonly CopyValue[]> {
  const every = expected >= 200_000 ? Math.ceil(expected / 10) : Infinity;
  const started = performance.now();
  let count = 0;
  for (const row of rows) {
    yield row;
    if (++count % every === 0) log(`  … ${count.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} (${elapsedSince(started).toFixed(1)} s)`);
  }
}

/**
 * Every department gets a generated plan image (its rooms drawn as a grid) as its picture, and
 * every desk a position on it, so a newcomer sees a map at once (docs/behaviour.md#floor-plans).
 * Answers the number of positions written.
 */
async function placeOnFloorPlans(session: BulkSession, world: World, now: Date): Promise<number> {
  const roomsOf = new Map<number, number[]>();
  world.rooms.forEach((room, index) => roomsOf.set(room.department, [...(roomsOf.get(room.department) ?? []), index]));
  const desksOf = new Map<number, number[]>();
  world.desks.forEach((desk, index) => desksOf.set(desk.room, [...(desksOf.get(desk.room) ?? []), index]));
  const positions: CopyValue[][] = [];
  for (const [departmentIndex, department] of world.departments.entries()) {
    const roomIndexes = roomsOf.get(departmentIndex) ?? [];
    const planRooms = roomIndexes.map((roomIndex) => ({ name: world.rooms[roomIndex]!.name, desks: desksOf.get(roomIndex)?.length ?? 0 }));
    const png = await renderPlanImage(`${department.location} · ${department.building} · floor ${department.floor}`, planRooms);
    const etag = `"${createHash('sha256').update(png).digest('base64url').slice(0, 32)}"`;
    await session.query(
      `insert into department_images (department_id, content_type, data, etag, updated_at) values ($1, 'image/png', decode($2, 'hex'), $3, $4::timestamptz)`,
      [department.id, png.toString('hex'), etag, now.toISOString()],
    );
    for (const placed of layoutPlan(planRooms).positions) {
      const desk = world.desks[desksOf.get(roomIndexes[placed.room]!)![placed.desk]!]!;
      positions.push([desk.id, department.id, placed.x, placed.y, placed.width, placed.height, placed.rotation]);
    }
  }
  return session.copy('floor_plan_positions', ['desk_id', 'department_id', 'x', 'y', 'width', 'height', 'rotation'], positions);
}
