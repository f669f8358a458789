import { Type } from '@sinclair/typebox';
import { EmailInput, PasswordInput } from '../../shared/fields.js';
import { Timestamp, Uuid } from '../../shared/schemas.js';

export const LoginBody = Type.Object(
  {
    email: EmailInput(),
    password: PasswordInput(),
  },
  { additionalProperties: false },
);

export const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false });

export const TokenPairSchema = Type.Object(
  {
    accessToken: Type.String({ description: 'Send as `Authorization: Bearer <accessToken>`.' }),
    refreshToken: Type.String({ description: 'Single use: POST it to /api/auth/refresh for a new pair. Reusing a spent one revokes the session.' }),
    tokenType: Type.Literal('Bearer'),
    expiresAt: Timestamp('When the access token expires.'),
    refreshExpiresAt: Timestamp('When the refresh token expires.'),
    sessionId: Uuid(),
    userId: Uuid(),
  },
  { title: 'TokenPair' },
);

export const WebSessionSchema = Type.Object(
  {
    accessToken: Type.String({ description: 'Send as `Authorization: Bearer <accessToken>`; keep it in memory only.' }),
    tokenType: Type.Literal('Bearer'),
    expiresAt: Timestamp('When the access token expires: renew before with POST /api/auth/web-session/refresh.'),
    refreshExpiresAt: Timestamp('When the session ends unless refreshed before (the refresh token itself is in the HttpOnly cookie).'),
    sessionId: Uuid(),
    userId: Uuid(),
  },
  { title: 'WebSession' },
);
