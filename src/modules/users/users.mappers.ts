import type { UserDto } from './users.schemas.js';
import type { UserRow } from './users.repository.js';

/** The User of docs/api.md#user; `enabled`, `ldap` and `role` only for admins (and for oneself via /api/self). */
export function toUserDto(
  row: Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'email' | 'hasAvatar' | 'enabled' | 'ldap' | 'role'>,
  withAdminFields: boolean,
): UserDto {
  const dto: UserDto = { id: row.id, firstName: row.firstName, lastName: row.lastName, email: row.email, hasAvatar: row.hasAvatar };
  if (withAdminFields) {
    dto.enabled = row.enabled;
    dto.ldap = row.ldap;
    dto.role = row.role;
  }
  return dto;
}
