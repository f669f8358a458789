import { Type } from '@sinclair/typebox';
import { Password } from '../../lib/fields.js';
import { passwordsMatch, type FormRules } from '../../lib/forms.js';

/** A new password typed twice: the reset page, and an admin setting someone's password. */
export const NewPassword = Type.Object({ password: Password('New password'), confirm: Type.String() });
export const NEW_PASSWORD_RULES: FormRules<{ password: string; confirm: string }> = {
  labels: { password: 'New password' },
  refine: passwordsMatch('password'),
};
export const NO_PASSWORD = { password: '', confirm: '' };
