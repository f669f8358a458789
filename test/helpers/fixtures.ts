import type { Database } from '../../src/db/client.js';
import { departments, desks, equipment, reports, reservations, rooms } from '../../src/db/schema.js';

/**
 * Rows written straight into the database, for tests that need inventory, reservations or
 * reports without going through (or depending on) those routes. Every helper answers the row.
 */

/**
 * Room names are unique within a department and desk names within a room
 * (docs/behaviour.md#names-of-rooms-and-desks): a room or desk without a name given gets one of
 * its own ("Room #7", "Desk #12"), numbered in the order of creation in this process.
 */
let unnamed = 0;
const defaultName = (what: string) => `${what} #${++unnamed}`;

type DepartmentRow = typeof departments.$inferSelect;
type RoomRow = typeof rooms.$inferSelect;
type DeskRow = typeof desks.$inferSelect;
type EquipmentRow = typeof equipment.$inferSelect;
type ReservationRow = typeof reservations.$inferSelect;
type ReportRow = typeof reports.$inferSelect;

export async function insertDepartment(db: Database, values: Partial<typeof departments.$inferInsert> = {}): Promise<DepartmentRow> {
  const [row] = await db
    .insert(departments)
    .values({ location: 'Berlin', building: 'HQ', floor: 1, ...values })
    .returning();
  return row!;
}

export async function insertRoom(db: Database, departmentId: string, values: Partial<typeof rooms.$inferInsert> = {}): Promise<RoomRow> {
  const [row] = await db
    .insert(rooms)
    .values({ departmentId, name: defaultName('Room'), ...values })
    .returning();
  return row!;
}

export async function insertDesk(db: Database, roomId: string, values: Partial<typeof desks.$inferInsert> = {}): Promise<DeskRow> {
  const [row] = await db
    .insert(desks)
    .values({ roomId, name: defaultName('Desk'), ...values })
    .returning();
  return row!;
}

export async function insertEquipment(db: Database, deskId: string, values: Partial<typeof equipment.$inferInsert> = {}): Promise<EquipmentRow> {
  const [row] = await db
    .insert(equipment)
    .values({ deskId, name: 'Dock', description: 'USB-C docking station', type: 'DOCKING_STATION', ...values })
    .returning();
  return row!;
}

export async function insertReservation(
  db: Database,
  values: { userId: string; deskId: string; startTime: Date; endTime: Date } & Partial<typeof reservations.$inferInsert>,
): Promise<ReservationRow> {
  const [row] = await db.insert(reservations).values(values).returning();
  return row!;
}

export async function insertReport(db: Database, values: { reportedBy: string } & Partial<typeof reports.$inferInsert>): Promise<ReportRow> {
  const [row] = await db
    .insert(reports)
    .values({ title: 'Broken', description: 'It does not work', ...values })
    .returning();
  return row!;
}

/** A department with one room holding one desk: the smallest bookable place. */
export async function insertDeskInNewRoom(db: Database, options: { deskType?: 'FLEX' | 'FIXED'; available?: boolean } = {}) {
  const department = await insertDepartment(db);
  const room = await insertRoom(db, department.id, { available: options.available ?? true });
  const desk = await insertDesk(db, room.id, { type: options.deskType ?? 'FLEX' });
  return { department, room, desk };
}
