import { Type } from '@sinclair/typebox';
import type { User } from '../../api/types.js';
import { Value } from '@sinclair/typebox/value';
import { Email, Name, Role, SHORT_TEXT_MAX } from '../../lib/fields.js';
import '../../lib/forms.js';

/** A person's names: one's own (profile) and anyone's (admins). */
export const PersonNames = Type.Object({ firstName: Name('First name'), lastName: Name('Last name') });
export const NAME_FIELDS = ['firstName', 'lastName'] as const;

/** What an admin sets of a user. */
export const PersonForm = Type.Object({ ...PersonNames.properties, email: Email(), role: Role, enabled: Type.Boolean(), ldap: Type.Boolean() });

/**
 * Changing a user: an address left as it is is neither checked nor sent. The service made some
 * itself that its own format refuses (the first admin's admin@localhost), and they must stay
 * editable (docs/behaviour.md#an-empty-install); a new address is checked as on creation.
 */
export const EditPersonForm = Type.Object({ ...PersonForm.properties, email: Type.String({ minLength: 1, maxLength: SHORT_TEXT_MAX }) });
export const isEmail = (value: string) => Value.Check(Email(), value);

export const fullName = (user: Pick<User, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`;
