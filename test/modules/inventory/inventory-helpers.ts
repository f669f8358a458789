import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { queryRows, type Database } from '../../../src/db/client.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { PAGEABLE_KEYS, PAGE_KEYS, type Page } from '../../helpers/contract.js';

/** Shared set-up and vocabulary of the inventory tests (departments, rooms, desks, equipment). */

export const DEPARTMENT_KEYS = ['building', 'floor', 'id', 'location', 'rooms'];
export const ROOM_KEYS = ['available', 'departmentId', 'desks', 'id', 'name'];
export const DESK_KEYS = ['departmentId', 'id', 'name', 'roomId', 'type'];
export const EQUIPMENT_KEYS = ['description', 'id', 'name', 'type'];
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export interface DepartmentBody {
  id: string;
  location: string;
  building: string;
  floor: number;
  rooms: string[];
}
export interface DeskBody {
  id: string;
  name: string;
  type: 'FLEX' | 'FIXED';
  roomId: string;
  departmentId: string;
}
export interface RoomBody {
  id: string;
  name: string;
  departmentId: string;
  available: boolean;
  desks: DeskBody[];
}
export interface EquipmentBody {
  id: string;
  name: string;
  description: string;
  type: string;
}

export const departmentUrl = (departmentId: string) => `/api/departments/${departmentId}`;
export const roomsUrl = (departmentId: string) => `${departmentUrl(departmentId)}/rooms`;
export const roomUrl = (departmentId: string, roomId: string) => `${roomsUrl(departmentId)}/${roomId}`;
export const desksUrl = (departmentId: string, roomId: string) => `${roomUrl(departmentId, roomId)}/desks`;
export const deskUrl = (departmentId: string, roomId: string, deskId: string) => `${desksUrl(departmentId, roomId)}/${deskId}`;
export const equipmentUrl = (departmentId: string, roomId: string, deskId: string) => `${deskUrl(departmentId, roomId, deskId)}/equipment`;
export const equipmentItemUrl = (departmentId: string, roomId: string, deskId: string, equipmentId: string) =>
  `${equipmentUrl(departmentId, roomId, deskId)}/${equipmentId}`;

export const sortedKeys = (value: object): string[] => Object.keys(value).sort();
/** The fields a 400 names, each once (an enum is a union: every branch reports the same field). */
export const fieldsOf = (problem: { errors?: { field: string }[] }) => [...new Set(problem.errors?.map((error) => error.field) ?? [])];
export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

export interface InventoryTest {
  t: TestApp;
  db: Database;
  admin: string;
  user: string;
  userId: string;
  /** Answers 200's body, failing the test with the response otherwise. */
  ok<T>(response: LightMyRequestResponse): T;
  get(url: string, token?: string, query?: Record<string, string | string[]>): Promise<LightMyRequestResponse>;
  send(method: 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: unknown): Promise<LightMyRequestResponse>;
}

export async function inventoryTest(): Promise<InventoryTest> {
  const t = await createTestApp();
  const admin = await t.adminToken();
  const password = 'inventory-user-1';
  const created = await t.createUser({ email: 'inventory.user@example.test', password });
  const user = (await t.login(created.email, password)).accessToken;
  return {
    t,
    db: t.database.handle.db,
    admin,
    user,
    userId: created.id,
    ok<T>(response: LightMyRequestResponse): T {
      if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      return response.json<T>();
    },
    get: (url, token, query) => t.request({ method: 'GET', url, token, ...(query ? { query } : {}) }),
    send: (method, url, token, payload) => t.request({ method, url, token, ...(payload === undefined ? {} : { payload: payload as object }) }),
  };
}

/** The page envelope (docs/api.md#page-envelope), key by key. */
export function expectEnvelope<T>(page: Page<T>): void {
  expect(sortedKeys(page)).toEqual(PAGE_KEYS);
  expect(sortedKeys(page.pageable)).toEqual(PAGEABLE_KEYS);
  for (const member of ['totalElements', 'totalPages', 'size', 'number', 'numberOfElements'] as const) expect(Number.isInteger(page[member])).toBe(true);
  for (const member of ['first', 'last', 'empty'] as const) expect(typeof page[member]).toBe('boolean');
}

export const TABLES = ['departments', 'rooms', 'desks', 'equipment', 'reservations', 'reports', 'department_images'] as const;
export type Table = (typeof TABLES)[number];

/** Rows of a table, optionally only those matching a column value. */
export async function countRows(db: Database, table: Table, where?: { column: string; value: string }): Promise<number> {
  const condition = where ? sql` where ${sql.identifier(where.column)} = ${where.value}` : sql``;
  const [row] = await queryRows<{ total: number }>(db, sql`select count(*)::int as total from ${sql.identifier(table)}${condition}`);
  return row!.total;
}

export async function modifiedAt(db: Database, table: 'departments' | 'rooms' | 'desks' | 'equipment', id: string): Promise<Date> {
  const [row] = await queryRows<{ modified: string }>(db, sql`select to_json(modified_at)#>>'{}' as modified from ${sql.identifier(table)} where id = ${id}`);
  return new Date(row!.modified);
}
