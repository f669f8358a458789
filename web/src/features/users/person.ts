import { Type } from '@sinclair/typebox';
import type { User } from '../../api/types.js';
import { Email, Name, Role } from '../../lib/fields.js';

/** A person's names: one's own (profile) and anyone's (admins). */
export const PersonNames = Type.Object({ firstName: Name('First name'), lastName: Name('Last name') });
export const NAME_FIELDS = ['firstName', 'lastName'] as const;

/** What an admin sets of a user. */
export const PersonForm = Type.Object({ ...PersonNames.properties, email: Email(), role: Role, enabled: Type.Boolean(), ldap: Type.Boolean() });

export const fullName = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;
