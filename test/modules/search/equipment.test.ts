import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import type { Page } from '../../helpers/contract.js';
import { createTestDatabase, rebuilt, StatementCounter, type SentStatement } from '../../helpers/database.js';
import { insertDepartment, insertDesk, insertEquipment, insertRoom } from '../../helpers/fixtures.js';

/**
 * Many equipment criteria (up to 20) in room and department search: the answer is the one of the
 * definition (a desk matches when each item is matched by some equipment of that desk), and the
 * statement's plan does not grow with the number of items. Written as one correlated EXISTS per
 * item, 20 items took PostgreSQL about a second to plan (for a millisecond of execution).
 */

type EquipmentType = 'DOCKING_STATION' | 'MONITOR' | 'KEYBOARD' | 'MOUSE' | 'HEADSET' | 'WEBCAM' | 'CHAIR' | 'OTHER';
interface Item {
  type?: EquipmentType;
  name?: string;
}
interface Gear {
  type: EquipmentType;
  name: string;
}

const EVERYTHING: Gear[] = [
  { type: 'DOCKING_STATION', name: 'Dell WD19 Dock' },
  { type: 'MONITOR', name: 'Dell U2720Q' },
  { type: 'MONITOR', name: 'LG 27UL850' },
  { type: 'KEYBOARD', name: 'Logitech MX Keys' },
  { type: 'MOUSE', name: 'Logitech MX Master' },
  { type: 'HEADSET', name: 'Jabra Evolve 75%' },
  { type: 'WEBCAM', name: 'Logitech C920' },
  { type: 'CHAIR', name: 'Steelcase Leap' },
];

/** Equipment of each desk, by desk name: variants of EVERYTHING that each lack what one item asks for. */
const DESKS: Record<string, Gear[]> = {
  everything: EVERYTHING,
  noWebcam: EVERYTHING.filter((gear) => gear.type !== 'WEBCAM'),
  // The webcam is named like one but typed OTHER: a name item matches it, a type item does not.
  webcamAsOther: EVERYTHING.map((gear): Gear => (gear.type === 'WEBCAM' ? { type: 'OTHER', name: 'Logitech C920 webcam' } : gear)),
  // One monitor only: items asking for a Dell monitor and an LG monitor need two.
  oneMonitor: EVERYTHING.filter((gear) => gear.name !== 'LG 27UL850'),
  bare: [],
  dockOnly: [{ type: 'DOCKING_STATION', name: 'HP Dock' }],
};

/** Twenty items: types alone, names alone (any case, `%` literal), both, and empty ones. */
const TWENTY: Item[] = [
  { type: 'DOCKING_STATION' },
  { type: 'MONITOR' },
  { type: 'MONITOR', name: 'dell' },
  { type: 'MONITOR', name: 'LG' },
  { type: 'KEYBOARD' },
  { name: 'mx keys' },
  { type: 'MOUSE', name: 'master' },
  { type: 'HEADSET' },
  { name: '75%' },
  { name: 'c920' },
  { type: 'CHAIR' },
  { name: 'leap' },
  { type: 'DOCKING_STATION', name: 'WD19' },
  {},
  { name: '' },
  { type: 'KEYBOARD', name: 'logitech' },
  { name: 'DELL' },
  { type: 'MOUSE' },
  { name: 'steelcase' },
  { type: 'HEADSET', name: 'jabra' },
];

/** The definition: every item is matched by some equipment of the desk (type equal, name a substring in any case). */
const deskMatches = (gear: Gear[], items: Item[]) =>
  items.every((item) =>
    gear.some(
      (one) => (item.type === undefined || one.type === item.type) && (item.name === undefined || one.name.toLowerCase().includes(item.name.toLowerCase())),
    ),
  );

describe('search with many equipment criteria', () => {
  let t: TestApp;
  let token: string;
  const counter = new StatementCounter();
  const deskIdByName = new Map<string, string>();
  const departmentOfDesk = new Map<string, string>();

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: counter.onQuery });
    t = await createTestApp({ database, timedJobs: false });
    token = await t.adminToken();
    const db = t.database.handle.db;
    // Two desks per room, two rooms per department.
    const names = Object.keys(DESKS);
    for (let index = 0; index < names.length; index++) {
      if (index % 4 === 0) departmentOfDesk.set('current', (await insertDepartment(db, { location: `City ${index}` })).id);
      if (index % 2 === 0) departmentOfDesk.set('room', (await insertRoom(db, departmentOfDesk.get('current')!, { name: `Room ${index}` })).id);
      const desk = await insertDesk(db, departmentOfDesk.get('room')!, { name: names[index]! });
      deskIdByName.set(names[index]!, desk.id);
      departmentOfDesk.set(desk.id, departmentOfDesk.get('current')!);
      for (const gear of DESKS[names[index]!]!) await insertEquipment(db, desk.id, gear);
    }
  });
  // The app does not own a database it was given: dispose of it here.
  afterAll(async () => {
    await t?.close();
    await t?.database.dispose();
  });

  const search = async <T>(kind: 'rooms' | 'departments', equipment: Item[]) => {
    const { result, sent } = await counter.record(() =>
      t.request({ method: 'POST', url: `/api/search/${kind}`, token, payload: { equipment }, query: { size: '100' } }),
    );
    expect(result.statusCode, result.body).toBe(200);
    return { page: result.json<Page<T>>(), sent };
  };
  const expectedDeskIds = (items: Item[]) =>
    Object.entries(DESKS)
      .filter(([, gear]) => deskMatches(gear, items))
      .map(([name]) => deskIdByName.get(name)!)
      .sort();

  it('answers what the definition answers, for 20 items and for parts of them', async () => {
    const cases: Item[][] = [
      TWENTY,
      TWENTY.slice(0, 4),
      TWENTY.slice(8, 12),
      [...TWENTY.slice(0, 19), { type: 'WEBCAM' }],
      [{ name: 'hp' }, { type: 'DOCKING_STATION' }],
      [{}],
    ];
    for (const items of cases) {
      const expected = expectedDeskIds(items);
      const rooms = (await search<{ desks: { id: string }[] }>('rooms', items)).page;
      expect(rooms.content.flatMap((room) => room.desks.map((desk) => desk.id)).sort()).toEqual(expected);
      const departments = (await search<{ id: string }>('departments', items)).page;
      expect(departments.content.map((department) => department.id).sort()).toEqual([...new Set(expected.map((id) => departmentOfDesk.get(id)!))].sort());
    }
    // The data set tells the items apart: the 20 match some desks, not all.
    expect(expectedDeskIds(TWENTY).length).toBeGreaterThan(0);
    expect(expectedDeskIds(TWENTY).length).toBeLessThan(Object.keys(DESKS).length - 2);
  });

  /** The search itself among a request's statements (the first one checks the session). */
  const searchStatement = (sent: SentStatement[]) => {
    const found = sent.filter((statement) => statement.sql.includes('"equipment"'));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  /** EXPLAIN of the one statement a search sends: its planning time and how many times it reads the equipment table. */
  async function planOf(statement: SentStatement): Promise<{ planningMs: number; equipmentScans: number }> {
    const rows = await queryRows<{ 'QUERY PLAN': unknown }>(t.database.handle.db, sql`explain (analyze, summary, format json) ${rebuilt(statement)}`);
    const raw = rows[0]!['QUERY PLAN'];
    const [plan] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ 'Planning Time': number; Plan: unknown }];
    const scans = (node: unknown): number => {
      const { 'Relation Name': relation, Plans: children = [] } = node as { 'Relation Name'?: string; Plans?: unknown[] };
      return (relation === 'equipment' ? 1 : 0) + children.reduce<number>((sum, child) => sum + scans(child), 0);
    };
    return { planningMs: plan['Planning Time'], equipmentScans: scans(plan.Plan) };
  }

  it('plans 20 items as cheaply as two: the equipment table is read in as many places, planning stays in milliseconds', async () => {
    for (const kind of ['rooms', 'departments'] as const) {
      const two = await planOf(searchStatement((await search(kind, TWENTY.slice(0, 2))).sent));
      const twenty = await planOf(searchStatement((await search(kind, TWENTY)).sent));
      expect(twenty.equipmentScans, kind).toBe(two.equipmentScans);
      // Generous (a loaded machine): one EXISTS per item took 800 ms and more.
      expect(twenty.planningMs, kind).toBeLessThan(200);
    }
  });
});
