import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const userRole = pgEnum('user_role', ['USER', 'ADMIN']);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    role: userRole('role').notNull().default('USER'),
    enabled: boolean('enabled').notNull().default(true),
    ldap: boolean('ldap').notNull().default(false),
    /** argon2id PHC string; null for directory users and for local users who have not set one yet. */
    passwordHash: text('password_hash'),
    /** Kept with the avatar in one transaction: read on every request, so no join for it. */
    hasAvatar: boolean('has_avatar').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_name_idx').on(t.lastName, t.firstName, t.id),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    createdAt: timestamptz('created_at').notNull(),
    modifiedAt: timestamptz('modified_at').notNull(),
    /** Expiry of the access token issued last for this session. */
    expiresAt: timestamptz('expires_at').notNull(),
    refreshExpiresAt: timestamptz('refresh_expires_at').notNull(),
    /** Bumped at every refresh; a refresh token carries the generation it was issued for. */
    refreshGeneration: integer('refresh_generation').notNull().default(0),
  },
  (t) => [index('sessions_user_idx').on(t.userId, t.createdAt), index('sessions_refresh_expiry_idx').on(t.refreshExpiresAt)],
);

/** Fixed-window counters for sign-in throttling, shared by every server process. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamptz('window_started_at').notNull(),
  attempts: integer('attempts').notNull(),
});

/** Values generated once and shared by every process (e.g. the token signing secret). */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const passwordTokenPurpose = pgEnum('password_token_purpose', ['reset', 'setup']);

/**
 * Single-use links that set a password: "forgot password" and "your account was created".
 * One row per user: a newer link replaces the older one in a single upsert, even under concurrency.
 */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself exists only in the mail. */
    tokenHash: text('token_hash').notNull().unique(),
    purpose: passwordTokenPurpose('purpose').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('password_tokens_expiry_idx').on(t.expiresAt)],
);

/** Re-encoded avatar images, in the database so every server process and every backup has them. */
export const userAvatars = pgTable('user_avatars', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  etag: text('etag').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
