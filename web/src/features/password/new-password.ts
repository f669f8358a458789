import { Type } from '@sinclair/typebox';
import { Password } from '../../lib/fields.js';
import { passwordsMatch, type FormRules } from '../../lib/forms.js';
import { translate } from '../../lib/translate.js';

/** A new password typed twice: the reset page, and an admin setting someone's password. */
export const NewPassword = Type.Object({ password: Password('New password'), confirm: Type.String() });
export const NEW_PASSWORD_RULES: FormRules<{ password: string; confirm: string }> = {
  labels: { password: () => translate('problems:field.newPassword') },
  refine: passwordsMatch('password'),
};
export const NO_PASSWORD = { password: '', confirm: '' };
