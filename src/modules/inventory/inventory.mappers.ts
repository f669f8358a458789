import type { DepartmentRow, RoomRow } from './inventory.repository.js';
import type { DepartmentDto, DepartmentWithRoomsDto, DeskDto, RoomDto } from './inventory.schemas.js';

/** A Department without its rooms (what a department image operation answers). */
export const toDepartmentSummaryDto = (row: Pick<DepartmentRow, 'id' | 'location' | 'building' | 'floor'>): DepartmentDto => ({
  id: row.id,
  location: row.location,
  building: row.building,
  floor: row.floor,
});

export const toDepartmentDto = (row: DepartmentRow, rooms: string[]): DepartmentWithRoomsDto => ({ ...toDepartmentSummaryDto(row), rooms });

export const toRoomDto = (row: RoomRow, desks: DeskDto[]): RoomDto => ({
  id: row.id,
  name: row.name,
  departmentId: row.departmentId,
  available: row.available,
  desks,
});
