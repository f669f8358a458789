import { Type, type Static } from '@sinclair/typebox';
import { PasswordInput, Role } from '../../shared/fields.js';
import { Email, Name, Password, Uuid } from '../../shared/schemas.js';
import { Page, pageQueryProperties } from '../../shared/paging.js';

export { Role };

export const User = Type.Object(
  {
    id: Uuid(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    enabled: Type.Optional(
      Type.Boolean({ description: 'Whether the user may sign in. Admins only: absent for other callers (except their own, via /api/self).' }),
    ),
    ldap: Type.Optional(Type.Boolean({ description: 'Whether the user signs in through the directory (LDAP). Admins only.' })),
    role: Type.Optional({ ...Role, description: 'USER or ADMIN. Admins only.' }),
    hasAvatar: Type.Boolean(),
  },
  { title: 'User' },
);
export type UserDto = Static<typeof User>;

export const UserPage = Page(User, 'PageOfUser');

export const CreateUserBody = Type.Object(
  {
    firstName: Name('First name'),
    lastName: Name('Last name'),
    email: Email(),
    role: Type.Optional({ ...Role, description: 'Default USER.' }),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true.' })),
    ldap: Type.Optional(Type.Boolean({ description: 'Default false. A directory user signs in with the directory password only.' })),
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Partial(CreateUserBody, { additionalProperties: false });
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const UpdateSelfBody = Type.Partial(Type.Pick(CreateUserBody, ['firstName', 'lastName']), { additionalProperties: false });
export type UpdateSelfBody = Static<typeof UpdateSelfBody>;

export const SetPasswordBody = Type.Object({ password: Password('New password') }, { additionalProperties: false });
export const ChangeOwnPasswordBody = Type.Object({ currentPassword: PasswordInput(), newPassword: Password('New password') }, { additionalProperties: false });

export const UserListQuery = Type.Object({
  ...pageQueryProperties,
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Substring of first name, last name or e-mail, any case (empty: no filter).' })),
  role: Type.Optional({ ...Role, description: 'Admins only (403 for others).' }),
  enabled: Type.Optional(Type.Boolean({ description: 'Admins only (403 for others).' })),
  ldap: Type.Optional(Type.Boolean({ description: 'Admins only (403 for others).' })),
});
export type UserListQuery = Static<typeof UserListQuery>;
