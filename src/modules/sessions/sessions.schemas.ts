import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from '../../shared/schemas.js';
import { Page, pageQueryProperties } from '../../shared/paging.js';

export const Session = Type.Object(
  {
    id: Uuid(),
    expiresAt: Timestamp('When the access token issued last for this session expires.'),
    refreshExpiresAt: Timestamp('When the refresh token of this session expires (the session ends then).'),
    userId: Uuid(),
    userAgent: Nullable(Type.String({ description: 'User-Agent header at sign-in (null when none was sent).' })),
    createdAt: Timestamp(),
    modifiedAt: Timestamp('Last refresh.'),
  },
  { title: 'Session' },
);
export type SessionDto = Static<typeof Session>;

export const SessionPage = Page(Session, 'PageOfSession');

export const SessionListQuery = Type.Object({
  ...pageQueryProperties,
  userId: Type.Optional(Uuid('Admins: only the sessions of this user. Others may give only their own id.')),
});
export type SessionListQuery = Static<typeof SessionListQuery>;

export const UserSessionsQuery = Type.Object(pageQueryProperties);
export type UserSessionsQuery = Static<typeof UserSessionsQuery>;
