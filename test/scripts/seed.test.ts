import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.js';
import { pgErrorCode, PG } from '../../src/db/errors.js';
import { migrate } from '../../src/db/migrate.js';
import { reservations, users } from '../../src/db/schema.js';
import { verifyPassword } from '../../src/identity/password-hashing.js';
import { buildWorld, reservationRows, reportRows } from '../../scripts/seed/generate.js';
import { PROFILES, SEED_ADMIN_EMAIL, SEED_PASSWORD, SeedRefusedError, seed, type SeedResult } from '../../scripts/seed/seed.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** A Wednesday morning; the seeded window is then [2024-09-12, 2025-09-12) in UTC. */
const NOW = new Date('2025-03-12T10:30:00.000Z');
const WINDOW_START = new Date('2024-09-12T00:00:00.000Z');
const WINDOW_END = new Date('2025-09-12T00:00:00.000Z');
const YEAR_BEFORE_NOW = new Date('2024-03-12T10:30:00.000Z');
const SIZES = PROFILES.small;

const count = async (db: Database, query: ReturnType<typeof sql>): Promise<number> => {
  const [row] = await queryRows<{ n: number }>(db, query);
  return Number(row!.n);
};

const tableCounts = async (db: Database) => {
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*) from departments)::int as departments, (select count(*) from rooms)::int as rooms,
               (select count(*) from desks)::int as desks, (select count(*) from equipment)::int as equipment,
               (select count(*) from users)::int as users, (select count(*) from reservations)::int as reservations,
               (select count(*) from reports)::int as reports`,
  );
  return row!;
};

/** Every constraint and index of reservations with its definition, as the catalog states them. */
const reservationSchema = (db: Database) =>
  queryRows<{ name: string; definition: string }>(
    db,
    sql`select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = 'reservations'::regclass
        union all
        select indexrelid::regclass::text, pg_get_indexdef(indexrelid) from pg_index where indrelid = 'reservations'::regclass
        order by 1, 2`,
  );

describe('seed (small profile)', () => {
  let database: TestDatabase;
  let db: Database;
  let result: SeedResult;
  let migratedSchema: { name: string; definition: string }[];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.handle.db;
    await migrate(db);
    migratedSchema = await reservationSchema(db);
    result = await seed(database.handle, { sizes: SIZES, seed: 7, now: NOW });
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('writes exactly the sizes of the profile, plus one admin', async () => {
    expect(await tableCounts(db)).toEqual({ ...SIZES, users: SIZES.users + 1 });
    const written = Object.fromEntries(result.steps.filter((step) => step.rows !== null).map((step) => [step.table, step.rows]));
    // Every desk is placed on its department's generated floor plan; calendars know every seeded
    // reservation (docs/behaviour.md#calendars), and no invitation mail is queued for them.
    expect(written).toEqual({ ...SIZES, 'floor plans': SIZES.desks, calendar_events: SIZES.reservations });
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outbox`))[0]!.n).toBe(0);
    expect(result.admin).toEqual({ email: SEED_ADMIN_EMAIL, created: true });
  });

  it('gives every department a plan image and places every desk on it, inside the image (docs/behaviour.md#floor-plans)', async () => {
    expect(await count(db, sql`select count(*) as n from department_images where content_type = 'image/png'`)).toBe(SIZES.departments);
    const misplaced = sql`select count(*) as n from desks d join rooms r on r.id = d.room_id
                          left join floor_plan_positions p on p.desk_id = d.id and p.department_id = r.department_id
                          where p.desk_id is null or p.x + p.width > 1 or p.y + p.height > 1`;
    expect(await count(db, misplaced)).toBe(0);
  });

  it('seeds users who sign in with the documented password, and one admin', async () => {
    const [user] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = 'user00001@example.test'`);
    expect(user).toMatchObject({ role: 'USER', enabled: true, ldap: false, hasAvatar: false });
    expect(await verifyPassword(user!.passwordHash, SEED_PASSWORD)).toBe(true);
    expect(await verifyPassword(user!.passwordHash, 'not-the-password')).toBe(false);
    const [last] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = 'user00200@example.test'`);
    expect(last?.role).toBe('USER');

    const [admin] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = ${SEED_ADMIN_EMAIL}`);
    expect(admin).toMatchObject({ role: 'ADMIN', enabled: true, ldap: false });
    expect(await verifyPassword(admin!.passwordHash, SEED_PASSWORD)).toBe(true);
    expect(await count(db, sql`select count(distinct password_hash)::int as n from users`)).toBe(1);
    expect(await count(db, sql`select count(*)::int as n from users where role = 'USER' and email ~ '^user[0-9]{5}@example\.test$'`)).toBe(SIZES.users);
  });

  it('never lets two reservations of one desk overlap', async () => {
    const overlaps = sql`select count(*)::int as n from reservations a join reservations b
      on a.desk_id = b.desk_id and a.id < b.id and a.start_time < b.end_time and b.start_time < a.end_time`;
    expect(await count(db, overlaps)).toBe(0);
  });

  it('never gives one user two overlapping reservations, and keeps every reservation under the per-user rule', async () => {
    const overlaps = sql`select count(*)::int as n from reservations a join reservations b
      on a.user_id = b.user_id and a.id < b.id and a.start_time < b.end_time and b.start_time < a.end_time`;
    expect(await count(db, overlaps)).toBe(0);
    expect(await count(db, sql`select count(*)::int as n from reservations where not user_exclusive`)).toBe(0);
  });

  it('leaves the constraints and indexes of reservations as the migrations made them', async () => {
    expect(await reservationSchema(db)).toEqual(migratedSchema);
    expect(migratedSchema.map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        'reservations_desk_id_desks_id_fk',
        'reservations_desk_overlap',
        'reservations_user_id_users_id_fk',
        'reservations_user_overlap',
      ]),
    );

    // The rebuilt exclusion constraint still refuses an overlapping booking.
    const [existing] = await db.select().from(reservations).limit(1);
    const attempt = db.insert(reservations).values({
      userId: (
        await db
          .select()
          .from(users)
          .where(sql`${users.email} = ${SEED_ADMIN_EMAIL}`)
      )[0]!.id,
      deskId: existing!.deskId,
      startTime: existing!.startTime,
      endTime: existing!.endTime,
    });
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(pgErrorCode(error)).toBe(PG.EXCLUSION_VIOLATION);
  });

  it('books workdays only, in the documented UTC slots, six months either side of now', async () => {
    expect(await count(db, sql`select count(*)::int as n from reservations where extract(isodow from start_time at time zone 'UTC') > 5`)).toBe(0);
    const slots = await queryRows<{ slot: string }>(
      db,
      sql`select distinct to_char(start_time at time zone 'UTC', 'HH24:MI') || '-' || to_char(end_time at time zone 'UTC', 'HH24:MI') as slot
          from reservations where (start_time at time zone 'UTC')::date = (end_time at time zone 'UTC')::date order by 1`,
    );
    expect(slots.map((s) => s.slot)).toEqual(['08:00-12:00', '08:00-17:00', '13:00-17:00']);
    expect(
      await count(db, sql`select count(*)::int as n from reservations where (start_time at time zone 'UTC')::date <> (end_time at time zone 'UTC')::date`),
    ).toBe(0);

    const [span] = await queryRows<{ first: string; last: string; past: number; future: number }>(
      db,
      sql`select min(start_time) as first, max(end_time) as last,
                 count(*) filter (where end_time <= ${NOW.toISOString()}::timestamptz)::int as past,
                 count(*) filter (where start_time >= ${NOW.toISOString()}::timestamptz)::int as future
          from reservations`,
    );
    expect(new Date(span!.first).getTime()).toBeGreaterThanOrEqual(WINDOW_START.getTime());
    expect(new Date(span!.first).getTime()).toBeLessThan(WINDOW_START.getTime() + 7 * 86_400_000);
    expect(new Date(span!.last).getTime()).toBeLessThanOrEqual(WINDOW_END.getTime());
    expect(new Date(span!.last).getTime()).toBeGreaterThan(WINDOW_END.getTime() - 7 * 86_400_000);
    expect(span!.past).toBeGreaterThan(SIZES.reservations * 0.4);
    expect(span!.future).toBeGreaterThan(SIZES.reservations * 0.4);
  });

  it('makes the middle of the week busier than Monday and Friday', async () => {
    const rows = await queryRows<{ weekday: number; n: number }>(
      db,
      sql`select extract(isodow from start_time at time zone 'UTC')::int as weekday, count(*)::int as n from reservations group by 1 order by 1`,
    );
    const byDay = Object.fromEntries(rows.map((row) => [row.weekday, row.n]));
    expect(Object.keys(byDay)).toEqual(['1', '2', '3', '4', '5']);
    for (const busy of [2, 3, 4]) {
      expect(byDay[busy]).toBeGreaterThan(byDay[1]!);
      expect(byDay[busy]).toBeGreaterThan(byDay[5]!);
    }
  });

  it('creates every reservation before it starts and never after now; modified equals created', async () => {
    const now = NOW.toISOString();
    expect(await count(db, sql`select count(*)::int as n from reservations where created_at >= start_time or created_at > ${now}::timestamptz`)).toBe(0);
    expect(await count(db, sql`select count(*)::int as n from reservations where modified_at <> created_at`)).toBe(0);
    // Bookings ahead of now were made in the past, not all at one instant.
    expect(await count(db, sql`select count(distinct created_at::date)::int as n from reservations where start_time > ${now}::timestamptz`)).toBeGreaterThan(
      30,
    );
  });

  it('books FIXED desks only as fixed, FLEX desks only as shared, and nothing in unavailable rooms', async () => {
    const mismatched = sql`select count(*)::int as n from reservations r join desks d on d.id = r.desk_id
      where (r.type = 'fixed') <> (d.type = 'FIXED')`;
    expect(await count(db, mismatched)).toBe(0);
    const fixed = await count(db, sql`select count(*)::int as n from reservations where type = 'fixed'`);
    expect(fixed).toBeGreaterThan(0);
    expect(fixed).toBeLessThan(SIZES.reservations * 0.1);
    const inUnavailable = sql`select count(*)::int as n from reservations r join desks d on d.id = r.desk_id join rooms m on m.id = d.room_id where not m.available`;
    expect(await count(db, inUnavailable)).toBe(0);
  });

  it('builds the inventory as described: about 5 % FIXED desks, a few unavailable rooms, distinct departments', async () => {
    expect(await count(db, sql`select count(*)::int as n from desks where type = 'FIXED'`)).toBe(Math.round(SIZES.desks * 0.05));
    expect(await count(db, sql`select count(*)::int as n from rooms where not available`)).toBe(1);
    expect(await count(db, sql`select count(distinct (location, building, floor))::int as n from departments`)).toBe(SIZES.departments);
    expect(await count(db, sql`select count(distinct location)::int as n from departments`)).toBe(SIZES.departments);
    expect(await count(db, sql`select count(*)::int as n from equipment where name = '' or description = ''`)).toBe(0);
    expect(await count(db, sql`select count(distinct type)::int as n from equipment`)).toBeGreaterThanOrEqual(5);
  });

  it('files reports naming a consistent department, room, desk and equipment chain', async () => {
    const inconsistent = sql`select count(*)::int as n from reports r
      left join equipment e on e.id = r.equipment_id
      left join desks d on d.id = r.desk_id
      left join rooms m on m.id = r.room_id
      where r.department_id is null
         or (r.equipment_id is not null and (r.desk_id is null or e.desk_id <> r.desk_id))
         or (r.desk_id is not null and (r.room_id is null or d.room_id <> r.room_id))
         or (r.room_id is not null and m.department_id <> r.department_id)`;
    expect(await count(db, inconsistent)).toBe(0);
    const [kinds] = await queryRows<Record<string, number>>(
      db,
      sql`select count(*) filter (where equipment_id is not null)::int as equipment,
                 count(*) filter (where equipment_id is null and desk_id is not null)::int as desk,
                 count(*) filter (where desk_id is null and room_id is not null)::int as room,
                 count(*) filter (where room_id is null)::int as department
          from reports`,
    );
    for (const kind of ['equipment', 'desk', 'room', 'department']) expect(kinds![kind]).toBeGreaterThan(0);
    const reporters = sql`select count(*)::int as n from reports r join users u on u.id = r.reported_by where u.role <> 'USER'`;
    expect(await count(db, reporters)).toBe(0);
    const outside = sql`select count(*)::int as n from reports
      where created_at > ${NOW.toISOString()}::timestamptz or created_at < ${YEAR_BEFORE_NOW.toISOString()}::timestamptz`;
    expect(await count(db, outside)).toBe(0);
  });

  it('refuses a database that is not empty and changes nothing', async () => {
    const before = await tableCounts(db);
    const error = await seed(database.handle, { sizes: SIZES, seed: 8, now: NOW }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(SeedRefusedError);
    expect((error as Error).message).toContain(`reservations: ${SIZES.reservations}`);
    expect((error as Error).message).toContain('--reset');
    expect(await tableCounts(db)).toEqual(before);
  });

  it('with reset, replaces the seeded rows and users but keeps other users, and teams; the policies naming removed places go', async () => {
    await db.insert(users).values({ email: 'keeper@other.test', firstName: 'Kim', lastName: 'Keeper' });
    // A team, an area of a seeded office and a closure of it (docs/policies.md): the area and the
    // closure name places the reset removes, the team does not.
    await db.execute(sql`insert into teams (name) values ('Keepers')`);
    await db.execute(sql`insert into policy_areas (name, kind, department_id) select 'North wing', 'DEPARTMENT', id from departments limit 1`);
    await db.execute(
      sql`insert into closures (scope, department_id, reason, dates, start_date) select 'DEPARTMENT', id, 'Move', '{2031-01-02}', '2031-01-02' from departments limit 1`,
    );
    const [firstBefore] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = 'user00001@example.test'`);
    const again = await seed(database.handle, { sizes: SIZES, seed: 8, now: NOW, reset: true });
    expect(await tableCounts(db)).toEqual({ ...SIZES, users: SIZES.users + 2 });
    expect(again.admin.created).toBe(false);
    const [firstAfter] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = 'user00001@example.test'`);
    expect(firstAfter!.id).not.toBe(firstBefore!.id);
    expect(await count(db, sql`select count(*)::int as n from users where email in ('keeper@other.test', ${SEED_ADMIN_EMAIL})`)).toBe(2);
    expect(await count(db, sql`select count(*)::int as n from teams`)).toBe(1);
    expect(await count(db, sql`select (select count(*) from policy_areas) + (select count(*) from closures)::int as n`)).toBe(0);
  });
});

describe('seed generator', () => {
  const tiny = { departments: 3, rooms: 6, desks: 30, equipment: 40, users: 40, reservations: 1_500, reports: 50 };

  it('gives the same rows for the same seed, and other rows for another', () => {
    const rows = (seedValue: number) => {
      const world = buildWorld(tiny, seedValue, NOW);
      return {
        world,
        reservations: [...reservationRows(world, tiny.reservations, seedValue, NOW)],
        reports: [...reportRows(world, tiny.reports, seedValue, NOW)],
      };
    };
    const first = rows(3);
    expect(rows(3)).toEqual(first);
    expect(first.reservations).toHaveLength(tiny.reservations);
    expect(rows(4).reservations[0]).not.toEqual(first.reservations[0]);
    expect(rows(4).world.users[0]!.id).not.toBe(first.world.users[0]!.id);
  });

  it('refuses sizes that cannot be booked without overlaps', () => {
    const world = buildWorld({ ...tiny, users: 5 }, 1, NOW);
    expect(() => [...reservationRows(world, 100_000, 1, NOW)]).toThrow(/do not fit/);
  });
});
