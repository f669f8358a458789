import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../shared/schemas.js';

export const OidcStatus = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether single sign-on is configured (OIDC_ISSUER).' }),
    displayName: Nullable(Type.String({ description: 'Name of the provider for the "Sign in with …" button (OIDC_DISPLAY_NAME).' })),
    startUrl: Nullable(Type.String({ description: 'Where the browser goes to sign in: GET it as a navigation, not with fetch.' })),
  },
  { title: 'OidcStatus' },
);

export const ExchangeBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 200, description: 'The one-time code the callback handed the web app (valid 60 s, once).' }) },
  { additionalProperties: false },
);

export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4096 })),
    state: Type.Optional(Type.String({ maxLength: 1024 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 1024 })),
    error_description: Type.Optional(Type.String({ maxLength: 4096 })),
    session_state: Type.Optional(Type.String({ maxLength: 4096 })),
  },
  { additionalProperties: true },
);

export const OidcIdentity = Type.Object(
  {
    linked: Type.Boolean(),
    issuer: Type.String({ description: 'The configured provider (OIDC_ISSUER).' }),
    subject: Nullable(Type.String({ description: "The provider's `sub` of the linked identity." })),
    linkedAt: Nullable(Timestamp('When the link was made.')),
  },
  { title: 'OidcIdentity' },
);

export const LinkBody = Type.Object(
  { subject: Type.String({ minLength: 1, maxLength: 255, description: "The provider's `sub` of the person (shown in the provider's user details)." }) },
  { additionalProperties: false },
);
