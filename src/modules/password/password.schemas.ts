import { Type } from '@sinclair/typebox';
import { EmailInput, Password } from '../../shared/fields.js';

export const ForgotBody = Type.Object({ email: EmailInput() }, { additionalProperties: false });

export const ForgotAnswer = Type.Object({ message: Type.String() }, { title: 'ForgotPasswordAnswer' });

export const ResetBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token from the link in the mail.' }), password: Password('New password') },
  { additionalProperties: false },
);
