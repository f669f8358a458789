import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../../helpers/app.js';
import { insertDepartment, insertDesk, insertRoom } from '../../helpers/fixtures.js';
import { countRows, desksUrl, deskUrl, inventoryTest, roomUrl, roomsUrl, type DeskBody, type InventoryTest, type RoomBody } from './inventory-helpers.js';

/**
 * Unique names (docs/behaviour.md#names-of-rooms-and-desks), several desks at once and the CSV
 * import (docs/behaviour.md#adding-many-desks-at-once), and the sample office
 * (docs/behaviour.md#an-empty-install).
 */

interface RowError {
  line: number;
  column: string;
  reason: string;
  message: string;
}

describe('names of rooms and desks', () => {
  let s: InventoryTest;
  let departmentId: string;
  let otherDepartmentId: string;

  beforeAll(async () => {
    s = await inventoryTest();
    departmentId = (await insertDepartment(s.db, { location: 'Names' })).id;
    otherDepartmentId = (await insertDepartment(s.db, { location: 'Other names' })).id;
  });
  afterAll(() => s.t.close());

  it('refuses a second room of the same name in a department, ignoring case and spaces, with 409 NAME_TAKEN', async () => {
    s.ok(await s.send('POST', roomsUrl(departmentId), s.admin, { name: 'Atlas' }));
    const twin = expectProblem(await s.send('POST', roomsUrl(departmentId), s.admin, { name: '  aTLAS ' }), 409, 'NAME_TAKEN');
    expect(twin.errors).toEqual([{ field: 'name', message: 'is taken by another room of this department' }]);
    // Another department may have its own Atlas.
    const elsewhere = s.ok<RoomBody>(await s.send('POST', roomsUrl(otherDepartmentId), s.admin, { name: 'Atlas' }));
    // Renaming into a taken name, or moving a room into a department that has the name, is refused too.
    const second = s.ok<RoomBody>(await s.send('POST', roomsUrl(departmentId), s.admin, { name: 'Borealis' }));
    expectProblem(await s.send('PUT', roomUrl(departmentId, second.id), s.admin, { name: 'ATLAS' }), 409, 'NAME_TAKEN');
    expectProblem(await s.send('PUT', roomUrl(otherDepartmentId, elsewhere.id), s.admin, { departmentId }), 409, 'NAME_TAKEN');
    // Keeping one's own name (another case) is no conflict.
    expect(s.ok<RoomBody>(await s.send('PUT', roomUrl(departmentId, second.id), s.admin, { name: 'BOREALIS' })).name).toBe('BOREALIS');
  });

  it('refuses a second desk of the same name in a room, on create, rename and move', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'Desks room' });
    const otherRoom = await insertRoom(s.db, departmentId, { name: 'Desks room 2' });
    s.ok(await s.send('POST', desksUrl(departmentId, room.id), s.admin, { name: 'A1' }));
    expectProblem(await s.send('POST', desksUrl(departmentId, room.id), s.admin, { name: 'a1' }), 409, 'NAME_TAKEN');
    const b1 = s.ok<DeskBody>(await s.send('POST', desksUrl(departmentId, room.id), s.admin, { name: 'B1' }));
    expectProblem(await s.send('PUT', deskUrl(departmentId, room.id, b1.id), s.admin, { name: 'A1' }), 409, 'NAME_TAKEN');
    const a1elsewhere = s.ok<DeskBody>(await s.send('POST', desksUrl(departmentId, otherRoom.id), s.admin, { name: 'A1' }));
    expectProblem(await s.send('PUT', deskUrl(departmentId, otherRoom.id, a1elsewhere.id), s.admin, { roomId: room.id }), 409, 'NAME_TAKEN');
    expect(await countRows(s.db, 'desks', { column: 'room_id', value: room.id })).toBe(2);
  });

  it('lets only one of two racing creates of the same name through', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'Race room' });
    const answers = await Promise.all([0, 1, 2].map(() => s.send('POST', desksUrl(departmentId, room.id), s.admin, { name: 'Raced' })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
  });
});

describe('several desks at once', () => {
  let s: InventoryTest;
  let departmentId: string;

  beforeAll(async () => {
    s = await inventoryTest();
    departmentId = (await insertDepartment(s.db, { location: 'Batches' })).id;
  });
  afterAll(() => s.t.close());

  const batch = (roomId: string, desks: unknown[], token = s.admin) => s.send('POST', `${desksUrl(departmentId, roomId)}/batch`, token, { desks });
  const csv = (roomId: string, body: string | Buffer, token = s.admin, contentType = 'text/csv') =>
    s.t.request({ method: 'POST', url: `${desksUrl(departmentId, roomId)}/import`, token, payload: body, headers: { 'content-type': contentType } });

  it('adds a list of desks in the order given, FLEX unless FIXED is asked for', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'Batch room' });
    const added = s.ok<{ desks: DeskBody[] }>(await batch(room.id, [{ name: 'D-1' }, { name: 'D-2', type: 'FIXED' }, { name: ' D-3 ' }]));
    expect(added.desks.map((desk) => [desk.name, desk.type, desk.roomId, desk.departmentId])).toEqual([
      ['D-1', 'FLEX', room.id, departmentId],
      ['D-2', 'FIXED', room.id, departmentId],
      ['D-3', 'FLEX', room.id, departmentId],
    ]);
    expect(await countRows(s.db, 'desks', { column: 'room_id', value: room.id })).toBe(3);
  });

  it('adds none when any entry is refused, naming each refused entry by its position', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'Batch refusals' });
    await insertDesk(s.db, room.id, { name: 'Taken' });
    const problem = expectProblem(await batch(room.id, [{ name: 'New-1' }, { name: 'taken' }, { name: 'New-1' }, { name: 'New-2' }]), 400, 'IMPORT_INVALID');
    expect(problem.rows).toEqual([
      { line: 2, column: 'name', reason: 'NAME_TAKEN', message: 'the room already has a desk "Taken"' },
      { line: 3, column: 'name', reason: 'REPEATED_IN_IMPORT', message: '"New-1" is also on line 1' },
    ]);
    expect(await countRows(s.db, 'desks', { column: 'room_id', value: room.id })).toBe(1);
  });

  it('is for admins, bounded, and 404 for a room not of the department', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'Batch bounds' });
    expectProblem(await batch(room.id, [{ name: 'X' }], s.user), 403, 'FORBIDDEN');
    expectProblem(await batch(room.id, []), 400, 'VALIDATION_FAILED');
    expectProblem(
      await batch(
        room.id,
        Array.from({ length: 501 }, (_, index) => ({ name: `N${index}` })),
      ),
      400,
      'VALIDATION_FAILED',
    );
    const elsewhere = (await insertDepartment(s.db, { location: 'Elsewhere' })).id;
    expectProblem(await s.send('POST', `${desksUrl(elsewhere, room.id)}/batch`, s.admin, { desks: [{ name: 'X' }] }), 404, 'NOT_FOUND');
  });

  it('imports a CSV file: header in any order and case, quotes, semicolons, blank type as FLEX', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'CSV room' });
    const added = s.ok<{ desks: DeskBody[] }>(await csv(room.id, 'Type,Name\r\nFIXED,C-1\r\n,"C-2, window"\r\nflex,C-3\r\n'));
    expect(added.desks.map((desk) => [desk.name, desk.type])).toEqual([
      ['C-1', 'FIXED'],
      ['C-2, window', 'FLEX'],
      ['C-3', 'FLEX'],
    ]);
    const room2 = await insertRoom(s.db, departmentId, { name: 'CSV room 2' });
    expect(s.ok<{ desks: DeskBody[] }>(await csv(room2.id, 'name;type\nS-1;FIXED\n')).desks.map((desk) => desk.type)).toEqual(['FIXED']);
  });

  it('refuses a CSV file with bad rows as a whole, with the line of each (the header is line 1)', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'CSV refusals' });
    await insertDesk(s.db, room.id, { name: 'E-9' });
    const text = ['name,type', 'E-1,FLEX', ',FLEX', 'E-2,CORNER', '', 'e-1,', `${'x'.repeat(201)},`, 'E-9,FIXED'].join('\n');
    const problem = expectProblem(await csv(room.id, text), 400, 'IMPORT_INVALID');
    expect((problem.rows as RowError[]).map((row) => [row.line, row.column, row.reason])).toEqual([
      [3, 'name', 'MISSING'],
      [4, 'type', 'UNKNOWN_TYPE'],
      [6, 'name', 'REPEATED_IN_IMPORT'],
      [7, 'name', 'TOO_LONG'],
      [8, 'name', 'NAME_TAKEN'],
    ]);
    expect(await countRows(s.db, 'desks', { column: 'room_id', value: room.id })).toBe(1);

    const header = expectProblem(await csv(room.id, 'desk,kind\nA,FLEX\n'), 400, 'IMPORT_INVALID');
    expect((header.rows as RowError[]).map((row) => [row.line, row.column, row.reason])).toEqual([
      [1, 'desk', 'UNKNOWN_COLUMN'],
      [1, 'kind', 'UNKNOWN_COLUMN'],
      [1, 'name', 'MISSING'],
    ]);
    const wide = expectProblem(await csv(room.id, 'name\nA,B\n'), 400, 'IMPORT_INVALID');
    expect((wide.rows as RowError[])[0]).toMatchObject({ line: 2, reason: 'TOO_MANY_COLUMNS' });
    const open = expectProblem(await csv(room.id, 'name\n"A\n'), 400, 'IMPORT_INVALID');
    expect((open.rows as RowError[])[0]).toMatchObject({ line: 2, reason: 'UNCLOSED_QUOTE' });
    expectProblem(await csv(room.id, 'name\n'), 400, 'IMPORT_INVALID');
  });

  it('bounds the file (413), the rows (500), and refuses bytes that are not UTF-8 and other media types', async () => {
    const room = await insertRoom(s.db, departmentId, { name: 'CSV bounds' });
    expectProblem(await csv(room.id, `name\n${'x,'.repeat(40_000)}`), 413);
    const many = expectProblem(await csv(room.id, ['name', ...Array.from({ length: 501 }, (_, index) => `R${index}`)].join('\n')), 400, 'IMPORT_INVALID');
    expect((many.rows as RowError[])[0]).toMatchObject({ line: 502, reason: 'TOO_MANY_ROWS' });
    expectProblem(await csv(room.id, Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe])), 400, 'INVALID_ENCODING');
    expectProblem(await csv(room.id, 'name\nA\n', s.admin, 'text/plain'), 415);
    // JSON is read by the service, but it is not a CSV file; nor is no body at all.
    expectProblem(await csv(room.id, '"name\\nA"', s.admin, 'application/json'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectProblem(await s.t.request({ method: 'POST', url: `${desksUrl(departmentId, room.id)}/import`, token: s.admin }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectProblem(await csv(room.id, 'name\nA\n', s.user), 403, 'FORBIDDEN');
    expect(await countRows(s.db, 'desks', { column: 'room_id', value: room.id })).toBe(0);
  });
});

describe('the sample office', () => {
  let s: InventoryTest;

  beforeAll(async () => {
    s = await inventoryTest();
  });
  afterAll(() => s.t.close());

  it('is for admins only', async () => {
    expectProblem(await s.send('POST', '/api/sample-data', s.user), 403, 'FORBIDDEN');
    expect(await countRows(s.db, 'departments')).toBe(0);
  });

  it('loads once into an empty install, even when two admins ask at the same moment, and never again', async () => {
    const answers = await Promise.all([s.send('POST', '/api/sample-data', s.admin), s.send('POST', '/api/sample-data', s.admin)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const loaded = answers.find((answer) => answer.statusCode === 200)!.json<{ id: string; location: string; rooms: string[] }>();
    expect(loaded.location).toBe('Sample office');
    expect(loaded.rooms).toHaveLength(2);
    expect(await countRows(s.db, 'departments')).toBe(1);
    expect(await countRows(s.db, 'desks')).toBe(9);
    expect(await countRows(s.db, 'desks', { column: 'type', value: 'FIXED' })).toBe(1);
    expect(await countRows(s.db, 'equipment')).toBe(18);
    expect(await countRows(s.db, 'reservations')).toBe(0);
    const again = expectProblem(await s.send('POST', '/api/sample-data', s.admin), 409, 'INSTALL_NOT_EMPTY');
    expect(again.detail).toMatch(/without offices/);
    // The rooms are listed like any other.
    const rooms = s.ok<{ content: RoomBody[] }>(await s.get(roomsUrl(loaded.id), s.user));
    expect(rooms.content.map((room) => [room.name, room.desks.length])).toEqual([
      ['Open space', 6],
      ['Quiet room', 3],
    ]);
  });
});
