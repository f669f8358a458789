import type { DepartmentRow, RoomRow } from './inventory.repository.js';
import type { DepartmentWithRoomsDto, DeskDto, RoomDto } from './inventory.schemas.js';

export const toDepartmentDto = (row: DepartmentRow, rooms: string[]): DepartmentWithRoomsDto => ({
  id: row.id,
  location: row.location,
  building: row.building,
  floor: row.floor,
  rooms,
});

export const toRoomDto = (row: RoomRow, desks: DeskDto[]): RoomDto => ({
  id: row.id,
  name: row.name,
  departmentId: row.departmentId,
  available: row.available,
  desks,
});
