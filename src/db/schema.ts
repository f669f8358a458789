import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A WAL position, as PostgreSQL writes it ('16/B374D848'); compared with pg_lsn semantics in src/db/replica.ts. */
const pgLsn = customType<{ data: string; driverData: string }>({ dataType: () => 'pg_lsn' });

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
    /** Set on an account created with a generated password: it must choose its own before anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
    /**
     * The primary's WAL position after this user's last write through the API, kept only while a
     * read replica is configured; authentication reads it, so a caller reads their own writes
     * (docs/deployment.md#with-a-read-replica).
     */
    lastWriteLsn: pgLsn('last_write_lsn'),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`), index('users_name_idx').on(t.lastName, t.firstName, t.id)],
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

/**
 * Failed sign-ins of one account from anywhere (the key is the lower-cased address typed, known or
 * not). The count is forgotten after a quiet LOGIN_ACCOUNT_WINDOW; past LOGIN_DELAY_AFTER_FAILURES,
 * an address that already failed on the account must wait until `blocked_until`.
 */
export const loginAccountFailures = pgTable(
  'login_account_failures',
  {
    account: text('account').primaryKey(),
    failures: integer('failures').notNull(),
    lastFailedAt: timestamptz('last_failed_at').notNull(),
    blockedUntil: timestamptz('blocked_until'),
  },
  (t) => [index('login_account_failures_last_idx').on(t.lastFailedAt)],
);

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

/**
 * An identity at an OpenID provider linked to a local user (docs/behaviour.md#single-sign-on-openid-connect):
 * once linked, the provider's `sub` alone finds the user. One identity per user and issuer.
 */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), uniqueIndex('oidc_identities_user_issuer_key').on(t.userId, t.issuer)],
);

/**
 * One OpenID Connect sign-in in progress, bound to the browser by the hash of a cookie value.
 * Either started (state hashed, nonce, PKCE verifier) or returned from the provider (the user and
 * the hash of the one-time code the web app exchanges). Each is deleted when used, and by
 * housekeeping when expired.
 */
export const oidcFlows = pgTable(
  'oidc_flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stateHash: text('state_hash').unique(),
    bindingHash: text('binding_hash').notNull(),
    nonce: text('nonce'),
    codeVerifier: text('code_verifier'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').unique(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('oidc_flows_expiry_idx').on(t.expiresAt)],
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

// ---- inventory: departments contain rooms, rooms contain desks, desks carry equipment ---------

/** FLEX: a shared desk anyone may book; FIXED: assigned by an admin (users cannot book it). */
export const deskType = pgEnum('desk_type', ['FLEX', 'FIXED']);
export const equipmentType = pgEnum('equipment_type', ['DOCKING_STATION', 'MONITOR', 'KEYBOARD', 'MOUSE', 'HEADSET', 'WEBCAM', 'CHAIR', 'OTHER']);
/** shared: an ordinary booking; fixed: an admin's assignment of a desk to a person. */
export const reservationType = pgEnum('reservation_type', ['shared', 'fixed']);

export const departments = pgTable(
  'departments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    location: text('location').notNull(),
    building: text('building').notNull(),
    floor: integer('floor').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [index('departments_order_idx').on(t.location, t.building, t.floor, t.id)],
);

/** Re-encoded department pictures (one per department), stored like avatars. */
export const departmentImages = pgTable('department_images', {
  departmentId: uuid('department_id')
    .primaryKey()
    .references(() => departments.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  etag: text('etag').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

export const rooms = pgTable(
  'rooms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    available: boolean('available').notNull().default(true),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  // Room names are unique within their department, ignoring case (docs/behaviour.md#names-of-rooms-and-desks).
  (t) => [index('rooms_department_idx').on(t.departmentId, t.name, t.id), uniqueIndex('rooms_department_name_key').on(t.departmentId, sql`lower(${t.name})`)],
);

export const desks = pgTable(
  'desks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => rooms.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: deskType('type').notNull().default('FLEX'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  // Desk names are unique within their room, ignoring case (docs/behaviour.md#names-of-rooms-and-desks).
  (t) => [index('desks_room_idx').on(t.roomId, t.name, t.id), uniqueIndex('desks_room_name_key').on(t.roomId, sql`lower(${t.name})`)],
);

export const equipment = pgTable(
  'equipment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deskId: uuid('desk_id')
      .notNull()
      .references(() => desks.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    type: equipmentType('type').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [index('equipment_desk_idx').on(t.deskId, t.name, t.id), index('equipment_type_idx').on(t.type, t.deskId)],
);

/**
 * Floor plans (docs/behaviour.md#floor-plans): where each desk sits on its department's image, in
 * fractions of the image (x and width of its width, y and height of its height; x, y the top-left
 * corner of the unrotated shape), turned `rotation` degrees clockwise about its centre. One row per
 * placed desk; department_id is the desk's department when it was placed: a trigger (migration
 * floor_plans) deletes the row when the desk moves to a room of another department, and the
 * foreign keys when the desk or the department is deleted.
 */
export const floorPlanPositions = pgTable(
  'floor_plan_positions',
  {
    deskId: uuid('desk_id')
      .primaryKey()
      .references(() => desks.id, { onDelete: 'cascade' }),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    x: doublePrecision('x').notNull(),
    y: doublePrecision('y').notNull(),
    width: doublePrecision('width').notNull(),
    height: doublePrecision('height').notNull(),
    rotation: doublePrecision('rotation').notNull().default(0),
  },
  (t) => [
    index('floor_plan_positions_department_idx').on(t.departmentId, t.deskId),
    check(
      'floor_plan_positions_inside',
      sql`${t.x} >= 0 and ${t.y} >= 0 and ${t.width} > 0 and ${t.height} > 0 and ${t.x} + ${t.width} <= 1 and ${t.y} + ${t.height} <= 1`,
    ),
    check('floor_plan_positions_rotation', sql`${t.rotation} >= 0 and ${t.rotation} < 360`),
  ],
);

/**
 * Half-open [start_time, end_time). Room and department are not stored: they are read through
 * the desk, so they stay right when a desk or room moves. Two exclusion constraints (written in
 * the migration; drizzle cannot express them) keep a desk, and a user with user_exclusive set,
 * from ever holding two overlapping reservations, whatever the number of server processes.
 */
export const reservations = pgTable(
  'reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deskId: uuid('desk_id')
      .notNull()
      .references(() => desks.id, { onDelete: 'cascade' }),
    startTime: timestamptz('start_time').notNull(),
    endTime: timestamptz('end_time').notNull(),
    type: reservationType('type').notNull().default('shared'),
    /** Set from RESERVATION_ONE_PER_USER when written; the per-user exclusion constraint covers these rows only. */
    userExclusive: boolean('user_exclusive').notNull().default(true),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
    /** The recurring series this reservation is an occurrence of (docs/behaviour.md#recurring-reservations); null for a single booking. */
    seriesId: uuid('series_id').references((): AnyPgColumn => reservationSeries.id, { onDelete: 'set null' }),
    /**
     * When the release of no-shows cut this reservation's end (docs/behaviour.md#release-of-no-shows);
     * null otherwise. The triggers read it (a change of it is a release: calendars cancel the event,
     * the attendance is not planned again): src/db/functions/.
     */
    releasedAt: timestamptz('released_at'),
    /**
     * Who made it when that was not its owner: an admin, a manager of the owner's team or the owner's
     * delegate (docs/policies.md#booking-for-someone-else, migration 0025); null when the owner booked
     * it themselves or the booker's account is gone.
     */
    bookedBy: uuid('booked_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('reservations_time_order', sql`${t.startTime} < ${t.endTime}`),
    index('reservations_series_idx').on(t.seriesId, t.startTime),
    index('reservations_user_start_idx').on(t.userId, t.startTime, t.id),
    index('reservations_start_idx').on(t.startTime, t.id),
    index('reservations_created_idx').on(t.createdAt),
    /**
     * A desk's reservations in time order, for search: they never overlap (reservations_desk_overlap),
     * so the last one starting before a window's end tells whether the desk is free in it, in one
     * B-tree descent (docs/query-plans.md#room-search-post-apisearchrooms).
     */
    index('reservations_desk_start_idx').on(t.deskId, t.startTime, t.endTime),
    index('reservations_booked_by_idx')
      .on(t.bookedBy)
      .where(sql`${t.bookedBy} IS NOT NULL`),
  ],
);

export const seriesFrequency = pgEnum('series_frequency', ['DAILY', 'WEEKLY']);

/**
 * A recurring reservation (docs/behaviour.md#recurring-reservations): the rule it was booked with.
 * Its occurrences are ordinary reservations pointing here (reservations.series_id); the first
 * start and end fix the wall-clock times, which the occurrences keep in `time_zone`.
 */
export const reservationSeries = pgTable(
  'reservation_series',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deskId: uuid('desk_id')
      .notNull()
      .references(() => desks.id, { onDelete: 'cascade' }),
    type: reservationType('type').notNull().default('shared'),
    frequency: seriesFrequency('frequency').notNull(),
    interval: smallint('interval').notNull().default(1),
    /** ISO weekdays (1 = Monday … 7 = Sunday) of a WEEKLY rule; empty for DAILY. */
    weekdays: smallint('weekdays')
      .array()
      .notNull()
      .default(sql`'{}'::smallint[]`),
    /** Last date (inclusive, in time_zone), or null when `count` ends the series. */
    until: date('until', { mode: 'string' }),
    count: smallint('count'),
    timeZone: text('time_zone').notNull(),
    firstStart: timestamptz('first_start').notNull(),
    firstEnd: timestamptz('first_end').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('reservation_series_ends', sql`(${t.until} is null) <> (${t.count} is null)`),
    index('reservation_series_user_idx').on(t.userId, t.createdAt, t.id),
    index('reservation_series_desk_idx').on(t.deskId),
  ],
);

/**
 * Defect reports. The place a report names is recorded when it is filed; deleting that place
 * later clears the reference (the report itself is history and stays).
 */
export const reportStatus = pgEnum('report_status', ['OPEN', 'IN_PROGRESS', 'RESOLVED']);

/**
 * Defect reports. The status columns (migration 0021, docs/behaviour.md#report-status) are not
 * members of the Report resource, which the interface fixes: they are read and set through
 * /api/report/{id}/status and listed by GET /api/report-statuses.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    reportedBy: uuid('reported_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    departmentId: uuid('department_id').references(() => departments.id, { onDelete: 'set null' }),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'set null' }),
    deskId: uuid('desk_id').references(() => desks.id, { onDelete: 'set null' }),
    equipmentId: uuid('equipment_id').references(() => equipment.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    status: reportStatus('status').notNull().default('OPEN'),
    statusNote: text('status_note'),
    statusChangedAt: timestamptz('status_changed_at'),
    statusChangedBy: uuid('status_changed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('reports_created_idx').on(t.createdAt, t.id),
    // The admins' list by status, newest first.
    index('reports_status_created_idx').on(t.status, t.createdAt, t.id),
    index('reports_room_created_idx').on(t.roomId, t.createdAt),
    index('reports_reported_by_idx').on(t.reportedBy),
    index('reports_department_idx').on(t.departmentId),
    index('reports_desk_idx').on(t.deskId),
    index('reports_equipment_idx').on(t.equipmentId),
    // Substring search (ILIKE '%…%') on title and description: trigram GIN indexes (pg_trgm, migration 0004).
    index('reports_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    index('reports_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
);

/**
 * How many write statements changed what GET /api/stats counts. Statement triggers on the counted
 * tables (departments, rooms, desks, equipment, users, reservations, reports; migration
 * stats_change_triggers) add one in the writing transaction, so a committed write is always seen
 * together with its count. Sixteen rows, one chosen by transaction id, so that concurrent
 * bookings rarely wait for one another's row lock; the sum is what counts.
 */
export const statsChanges = pgTable('stats_changes', {
  shard: smallint('shard').primaryKey(),
  changes: bigint('changes', { mode: 'bigint' })
    .notNull()
    .default(sql`0`),
});

// ---- calendars: private feeds, per-event sequence and tombstones, invitation mails ------------

/**
 * A user's private calendar feed (docs/behaviour.md#calendars): one per user, replaced in one
 * upsert. Only the SHA-256 of the token is kept; the token itself is shown once.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamptz('created_at').notNull(),
  /**
   * When the newest feed text answered with 200 was read from the database (null: never): events
   * created before it may be in a calendar app, so cancelling them leaves a tombstone
   * (docs/behaviour.md#calendar-feed).
   */
  fetchedAt: timestamptz('fetched_at'),
});

/** Per-user calendar settings; no row means the defaults (invitation mails on). */
export const calendarSettings = pgTable('calendar_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  invitationMails: boolean('invitation_mails').notNull().default(true),
  modifiedAt: timestamptz('modified_at').notNull(),
});

/**
 * What calendars know of each reservation, kept by a trigger on reservations (migration
 * `calendar`), so every write path is covered: the iCalendar SEQUENCE (grows on every change of
 * time, desk or owner), the time of the last change (DTSTAMP), the place as last seen, and, once
 * the reservation is deleted, the time it was cancelled: such a tombstone is served as
 * STATUS:CANCELLED until housekeeping removes it after 30 days. No foreign key to reservations:
 * the row outlives it.
 */
export const calendarEvents = pgTable(
  'calendar_events',
  {
    reservationId: uuid('reservation_id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deskId: uuid('desk_id').notNull(),
    startTime: timestamptz('start_time').notNull(),
    endTime: timestamptz('end_time').notNull(),
    /** "location · building · Floor n · room · desk" when last written (tombstones keep it after the desk is gone). */
    location: text('location').notNull().default(''),
    sequence: integer('sequence').notNull().default(0),
    changedAt: timestamptz('changed_at').notNull(),
    cancelledAt: timestamptz('cancelled_at'),
    /** When the event was first written (a feed fetched after it may show it). */
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** When an invitation mail (METHOD:REQUEST) carrying it was accepted by the SMTP server; null: never, so no cancellation is mailed. */
    invitedAt: timestamptz('invited_at'),
    /** Whether the reservation awaits approval (docs/policies.md#approvals): served as STATUS:TENTATIVE. */
    tentative: boolean('tentative').notNull().default(false),
  },
  (t) => [
    index('calendar_events_user_start_idx').on(t.userId, t.startTime),
    index('calendar_events_cancelled_idx')
      .on(t.cancelledAt)
      .where(sql`${t.cancelledAt} is not null`),
    index('calendar_events_user_tombstones_idx')
      .on(t.userId, t.cancelledAt)
      .where(sql`${t.cancelledAt} is not null`),
  ],
);

// ---- attendance: check-in, release of no-shows (docs/behaviour.md#attendance) ----------------

/**
 * Per-department overrides of the check-in settings (null: the global CHECK_IN_* value) and the
 * office's IANA time zone, used for walk-in and day boundaries. Deleted with its department.
 */
export const departmentSettings = pgTable('department_settings', {
  departmentId: uuid('department_id')
    .primaryKey()
    .references(() => departments.id, { onDelete: 'cascade' }),
  checkInRequired: boolean('check_in_required'),
  checkInOpensBeforeMs: integer('check_in_opens_before_ms'),
  checkInGraceMs: integer('check_in_grace_ms'),
  timeZone: text('time_zone').notNull().default('UTC'),
  modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
});

/**
 * The global check-in settings as the server processes were started with them (one row, id 1),
 * so the trigger that plans a reservation's attendance (migration attendance) reads them in the
 * writing transaction.
 */
export const attendanceDefaults = pgTable(
  'attendance_defaults',
  {
    id: smallint('id').primaryKey(),
    checkInRequired: boolean('check_in_required').notNull(),
    checkInOpensBeforeMs: integer('check_in_opens_before_ms').notNull(),
    checkInGraceMs: integer('check_in_grace_ms').notNull(),
  },
  (t) => [check('attendance_defaults_one_row', sql`${t.id} = 1`)],
);

export const attendanceStatus = pgEnum('attendance_status', ['PENDING', 'CHECKED_IN', 'NO_SHOW', 'NOT_REQUIRED']);

/**
 * Attendance of one reservation, planned by a trigger whenever a reservation is written (its
 * times and the check-in settings then in force). `release_at` is set while check-in is required:
 * the earlier of start + grace and the end. The release job claims PENDING rows that are due.
 */
export const attendance = pgTable(
  'attendance',
  {
    reservationId: uuid('reservation_id')
      .primaryKey()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    status: attendanceStatus('status').notNull(),
    checkInOpensAt: timestamptz('check_in_opens_at').notNull(),
    releaseAt: timestamptz('release_at'),
    checkedInAt: timestamptz('checked_in_at'),
    releasedAt: timestamptz('released_at'),
  },
  (t) => [
    index('attendance_due_idx')
      .on(t.releaseAt)
      .where(sql`${t.status} = 'PENDING'`),
    index('attendance_released_idx').on(t.releasedAt),
    index('attendance_opens_idx')
      .on(t.checkInOpensAt)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);

// ---- the outbox and the job runner (docs/architecture.md#the-outbox, #background-jobs) -------

export const outboxStatus = pgEnum('outbox_status', ['pending', 'sending', 'sent', 'dead']);

/**
 * Every message the service sends (mails today), written in the transaction that decides it
 * (or by the reservations trigger, calendar invitations), sent by the outbox job of any server
 * process (src/infrastructure/outbox): claimed with a lease (status sending, lease_until,
 * claim_token) so two processes never send it both and a crashed claim is taken over, retried with
 * backoff, dead after its kind's attempts. Rows of one `group_key` (the person) are served in turn
 * with other people's; rows of one `topic` go out as one message. Kept after sending for
 * MAIL_RETENTION, dead ones for OUTBOX_DEAD_RETENTION.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    groupKey: text('group_key').notNull(),
    topic: text('topic'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: outboxStatus('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    leaseUntil: timestamptz('lease_until'),
    claimToken: uuid('claim_token'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
    deadAt: timestamptz('dead_at'),
  },
  (t) => [
    index('outbox_open_idx')
      .on(t.kind, t.groupKey, t.id)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('outbox_sent_idx')
      .on(t.sentAt)
      .where(sql`${t.status} = 'sent'`),
    index('outbox_dead_idx')
      .on(t.deadAt, t.id)
      .where(sql`${t.status} = 'dead'`),
    // A deleted user's rows go with them (src/modules/users).
    index('outbox_group_idx').on(t.groupKey),
    index('outbox_claim_token_idx')
      .on(t.claimToken)
      .where(sql`${t.claimToken} is not null`),
    index('outbox_calendar_reservation_idx')
      .on(sql`(${t.payload} ->> 'reservationId')`)
      .where(sql`${t.kind} = 'calendar.invitation'`),
  ],
);

/**
 * Per kind and group (person): messages sent in the current window (a kind's per-group limit,
 * e.g. CALENDAR_MAILS_PER_HOUR) and when the last went out (who is served next).
 */
export const outboxGroups = pgTable(
  'outbox_groups',
  {
    kind: text('kind').notNull(),
    groupKey: text('group_key').notNull(),
    windowStartedAt: timestamptz('window_started_at').notNull(),
    messages: integer('messages').notNull().default(0),
    lastSentAt: timestamptz('last_sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.groupKey] })],
);

/** The next run of each job that runs in one process per interval (src/infrastructure/jobs): claimed by one statement. */
export const jobSlots = pgTable('job_slots', {
  name: text('name').primaryKey(),
  nextRunAt: timestamptz('next_run_at').notNull(),
});

/** MANAGER: a member who manages the team (docs/policies.md#teams). */
export const teamRole = pgEnum('team_role', ['MEMBER', 'MANAGER']);
/** Who made a membership: an admin, or the directory group / OpenID Connect group kept in step at sign-in. */
export const teamMemberSource = pgEnum('team_member_source', ['ADMIN', 'LDAP', 'OIDC']);

export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** DN of a directory group whose members are this team's members. */
    ldapGroup: text('ldap_group'),
    /** A value of the OpenID Connect groups claim whose holders are this team's members. */
    oidcGroup: text('oidc_group'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('teams_name_lower_key').on(sql`lower(${t.name})`),
    uniqueIndex('teams_ldap_group_lower_key').on(sql`lower(${t.ldapGroup})`),
    uniqueIndex('teams_oidc_group_key').on(t.oidcGroup),
    check('teams_name_check', sql`length(${t.name}) BETWEEN 1 AND 100`),
    check('teams_description_check', sql`length(${t.description}) <= 1000`),
    check('teams_ldap_group_check', sql`length(${t.ldapGroup}) BETWEEN 1 AND 1000`),
    check('teams_oidc_group_check', sql`length(${t.oidcGroup}) BETWEEN 1 AND 200`),
  ],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: teamRole('role').notNull().default('MEMBER'),
    source: teamMemberSource('source').notNull().default('ADMIN'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_idx').on(t.userId, t.teamId)],
);

// ---- closures: closed days and holidays (docs/policies.md#closures-and-holidays) ------------

/** Where a closure holds: every office, one department, or one building (a location and building pair). */
export const closureScope = pgEnum('closure_scope', ['EVERYWHERE', 'DEPARTMENT', 'BUILDING']);

/**
 * Days offices are closed, with a reason: one-off `dates` or an `rrule` (with COUNT or UNTIL) from
 * `start_date`. Migration 0024 also adds the trigger `reservations_closures` (closures_refuse) that
 * refuses a reservation touching a closed day.
 */
export const closures = pgTable(
  'closures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scope: closureScope('scope').notNull(),
    departmentId: uuid('department_id').references(() => departments.id, { onDelete: 'cascade' }),
    location: text('location'),
    building: text('building'),
    reason: text('reason').notNull(),
    dates: date('dates', { mode: 'string' }).array(),
    rrule: text('rrule'),
    /** The first closed day (DTSTART of the rrule). */
    startDate: date('start_date', { mode: 'string' }).notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('closures_department_idx').on(t.departmentId),
    check('closures_reason_check', sql`length(${t.reason}) BETWEEN 1 AND 200`),
    check('closures_department_check', sql`(${t.scope} = 'DEPARTMENT') = (${t.departmentId} IS NOT NULL)`),
    check('closures_building_check', sql`(${t.scope} = 'BUILDING') = (${t.location} IS NOT NULL AND ${t.building} IS NOT NULL)`),
    check('closures_days_check', sql`(${t.dates} IS NULL) <> (${t.rrule} IS NULL)`),
    check('closures_rrule_check', sql`length(${t.rrule}) <= 500`),
  ],
);

/** Every closed local date of a closure, expanded when it is created (at most MAX_CLOSURE_DAYS). */
export const closureDays = pgTable(
  'closure_days',
  {
    closureId: uuid('closure_id')
      .notNull()
      .references(() => closures.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.closureId, t.day] }), index('closure_days_day_idx').on(t.day, t.closureId)],
);

/**
 * The people a person lets book, change and cancel reservations for them (docs/policies.md#booking-for-someone-else,
 * migration 0025): `user_id` granted it to `delegate_id`. Removing either removes the grant.
 */
export const delegates = pgTable(
  'delegates',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delegateId: uuid('delegate_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.delegateId] }),
    index('delegates_delegate_idx').on(t.delegateId, t.userId),
    check('delegates_not_self_check', sql`${t.userId} <> ${t.delegateId}`),
  ],
);

/** What an area is made of (docs/policies.md#areas): a whole department, a room, or a set of desks. */
export const policyAreaKind = pgEnum('policy_area_kind', ['DEPARTMENT', 'ROOM', 'DESKS']);
/** Where a rule holds (docs/policies.md#rules). */
export const policyScope = pgEnum('policy_scope', ['EVERYWHERE', 'DEPARTMENT', 'ROOM', 'AREA', 'DESK_TYPE']);
/** Whom a rule binds. */
export const policyWho = pgEnum('policy_who', ['EVERYONE', 'TEAM', 'ROLE']);
/** A rule's ROLE: the account's role, or TEAM_MANAGER (a manager of any team). */
export const policyRole = pgEnum('policy_role', ['USER', 'ADMIN', 'TEAM_MANAGER']);
export const policyLimitKind = pgEnum('policy_limit_kind', [
  'BOOKING_WINDOW',
  'MIN_DURATION',
  'MAX_DURATION',
  'GRANULARITY',
  'WEEKDAYS_HOURS',
  'MAX_BOOKINGS',
  'MAX_HOURS',
  'MAX_CONCURRENT',
  'CAPACITY',
  'CANCEL_LEAD',
  'OWN_AREAS_ONLY',
]);

/** Where teams sit (docs/policies.md#areas); written only by modules/policies. */
export const policyAreas = pgTable(
  'policy_areas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    kind: policyAreaKind('kind').notNull(),
    departmentId: uuid('department_id').references(() => departments.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'cascade' }),
    /** ISO weekdays (1 = Monday) on which the area is its teams'; empty: every day. */
    weekdays: smallint('weekdays')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Whether people outside its teams are refused on those days. */
    exclusive: boolean('exclusive').notNull().default(true),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('policy_areas_name_lower_key').on(sql`lower(${t.name})`),
    index('policy_areas_department_idx').on(t.departmentId),
    index('policy_areas_room_idx').on(t.roomId),
    check('policy_areas_name_check', sql`length(${t.name}) BETWEEN 1 AND 100`),
    check('policy_areas_department_check', sql`(${t.kind} = 'DEPARTMENT') = (${t.departmentId} IS NOT NULL)`),
    check('policy_areas_room_check', sql`(${t.kind} = 'ROOM') = (${t.roomId} IS NOT NULL)`),
    check('policy_areas_weekdays_check', sql`${t.weekdays} <@ '{1,2,3,4,5,6,7}'::smallint[]`),
  ],
);

export const policyAreaTeams = pgTable(
  'policy_area_teams',
  {
    areaId: uuid('area_id')
      .notNull()
      .references(() => policyAreas.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.areaId, t.teamId] }), index('policy_area_teams_team_idx').on(t.teamId)],
);

export const policyAreaDesks = pgTable(
  'policy_area_desks',
  {
    areaId: uuid('area_id')
      .notNull()
      .references(() => policyAreas.id, { onDelete: 'cascade' }),
    deskId: uuid('desk_id')
      .notNull()
      .references(() => desks.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.areaId, t.deskId] }), index('policy_area_desks_desk_idx').on(t.deskId, t.areaId)],
);

/** Booking rules: scope × who × limit (docs/policies.md#rules); written only by modules/policies. */
export const policyRules = pgTable(
  'policy_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().default(''),
    scope: policyScope('scope').notNull(),
    departmentId: uuid('department_id').references(() => departments.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'cascade' }),
    areaId: uuid('area_id').references(() => policyAreas.id, { onDelete: 'cascade' }),
    deskType: deskType('desk_type'),
    who: policyWho('who').notNull(),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    role: policyRole('role'),
    kind: policyLimitKind('kind').notNull(),
    /** The limit's figures (policies.rules.ts: `Limit`). */
    params: jsonb('params').notNull().default({}),
    appliesToAdmins: boolean('applies_to_admins').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [
    check('policy_rules_name_check', sql`length(${t.name}) <= 100`),
    check('policy_rules_department_check', sql`(${t.scope} = 'DEPARTMENT') = (${t.departmentId} IS NOT NULL)`),
    check('policy_rules_room_check', sql`(${t.scope} = 'ROOM') = (${t.roomId} IS NOT NULL)`),
    check('policy_rules_area_check', sql`(${t.scope} = 'AREA') = (${t.areaId} IS NOT NULL)`),
    check('policy_rules_desk_type_check', sql`(${t.scope} = 'DESK_TYPE') = (${t.deskType} IS NOT NULL)`),
    check('policy_rules_team_check', sql`(${t.who} = 'TEAM') = (${t.teamId} IS NOT NULL)`),
    check('policy_rules_role_check', sql`(${t.who} = 'ROLE') = (${t.role} IS NOT NULL)`),
  ],
);

// ---- approvals: requirements and the approval of reservations (docs/policies.md#approvals) ----

/** EVERYONE; MEMBERS: the people of `team_id`; NON_MEMBERS: the people outside it. */
export const approvalAppliesTo = pgEnum('approval_applies_to', ['EVERYONE', 'MEMBERS', 'NON_MEMBERS']);
export const approvalStatus = pgEnum('approval_status', ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED']);

/**
 * A booking of a place in scope (a department, a room, desks of a type) by the people it applies to
 * waits for approval by an admin or a manager of `approver_team_id` (migration 0026).
 */
export const approvalRequirements = pgTable(
  'approval_requirements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** AREA, ROOM, DEPARTMENT or DESK_TYPE (text with a check: migration 0030). */
    scope: text('scope').$type<'AREA' | 'ROOM' | 'DEPARTMENT' | 'DESK_TYPE'>().notNull(),
    departmentId: uuid('department_id').references(() => departments.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id').references(() => rooms.id, { onDelete: 'cascade' }),
    areaId: uuid('area_id').references(() => policyAreas.id, { onDelete: 'cascade' }),
    deskType: deskType('desk_type'),
    appliesTo: approvalAppliesTo('applies_to').notNull().default('EVERYONE'),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    /** Whose managers approve, besides the admins; null: admins only. */
    approverTeamId: uuid('approver_team_id').references(() => teams.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('approval_requirements_department_idx').on(t.departmentId),
    index('approval_requirements_room_idx').on(t.roomId),
    index('approval_requirements_approver_team_idx').on(t.approverTeamId),
    index('approval_requirements_area_idx').on(t.areaId),
    check('approval_requirements_scope_check', sql`${t.scope} IN ('AREA', 'ROOM', 'DEPARTMENT', 'DESK_TYPE')`),
    check('approval_requirements_department_check', sql`(${t.scope} = 'DEPARTMENT') = (${t.departmentId} IS NOT NULL)`),
    check('approval_requirements_room_check', sql`(${t.scope} = 'ROOM') = (${t.roomId} IS NOT NULL)`),
    check('approval_requirements_desk_type_check', sql`(${t.scope} = 'DESK_TYPE') = (${t.deskType} IS NOT NULL)`),
    check('approval_requirements_area_check', sql`(${t.scope} = 'AREA') = (${t.areaId} IS NOT NULL)`),
    check('approval_requirements_team_check', sql`(${t.appliesTo} = 'EVERYONE') = (${t.teamId} IS NULL)`),
  ],
);

/**
 * The approval of one reservation that fell under a requirement, written in the booking's
 * transaction by the one writer. No foreign key to reservations: a rejected or expired request
 * keeps its outcome after its reservation is cancelled. Times and desk as last written. The
 * trigger `reservation_approvals_calendar` (approval_calendar) makes a pending one TENTATIVE in calendars.
 */
export const reservationApprovals = pgTable(
  'reservation_approvals',
  {
    reservationId: uuid('reservation_id').primaryKey(),
    requirementId: uuid('requirement_id').references(() => approvalRequirements.id, { onDelete: 'set null' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deskId: uuid('desk_id').references(() => desks.id, { onDelete: 'set null' }),
    startTime: timestamptz('start_time').notNull(),
    endTime: timestamptz('end_time').notNull(),
    status: approvalStatus('status').notNull().default('PENDING'),
    requestedAt: timestamptz('requested_at').notNull(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamptz('decided_at'),
    note: text('note'),
  },
  (t) => [
    index('reservation_approvals_pending_idx')
      .on(t.startTime, t.reservationId)
      .where(sql`${t.status} = 'PENDING'`),
    index('reservation_approvals_user_idx').on(t.userId, t.requestedAt),
    index('reservation_approvals_requirement_idx').on(t.requirementId),
    check('reservation_approvals_note_check', sql`length(${t.note}) <= 500`),
    check('reservation_approvals_decided_check', sql`(${t.status} = 'PENDING') = (${t.decidedAt} IS NULL)`),
  ],
);

// ---- favourites: favourite desks, home office, default window (docs/favourites.md) -----------

/** A person's starred desks (docs/favourites.md#favourite-desks, migration 0028); written only by modules/favourites. */
export const favouriteDesks = pgTable(
  'favourite_desks',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deskId: uuid('desk_id')
      .notNull()
      .references(() => desks.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deskId] }), index('favourite_desks_desk_idx').on(t.deskId)],
);

/** NONE: no default window; HOURS: window_start_minute–window_end_minute; WHOLE_DAY: 00:00–24:00 (docs/favourites.md#home-office-and-default-window). */
export const bookingWindowKind = pgEnum('booking_window_kind', ['NONE', 'HOURS', 'WHOLE_DAY']);

/**
 * A person's home office and default booking window, in minutes of the day on the office's wall
 * clock (docs/favourites.md#home-office-and-default-window, migration 0028); written only by modules/favourites.
 */
export const bookingDefaults = pgTable(
  'booking_defaults',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    homeDepartmentId: uuid('home_department_id').references(() => departments.id, { onDelete: 'set null' }),
    windowKind: bookingWindowKind('window_kind').notNull().default('NONE'),
    windowStartMinute: smallint('window_start_minute'),
    windowEndMinute: smallint('window_end_minute'),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [
    index('booking_defaults_home_department_idx')
      .on(t.homeDepartmentId)
      .where(sql`${t.homeDepartmentId} IS NOT NULL`),
    check(
      'booking_defaults_hours_check',
      sql`(${t.windowKind} = 'HOURS') = (${t.windowStartMinute} IS NOT NULL AND ${t.windowEndMinute} IS NOT NULL) AND (${t.windowKind} <> 'HOURS' OR (0 <= ${t.windowStartMinute} AND ${t.windowStartMinute} < ${t.windowEndMinute} AND ${t.windowEndMinute} <= 1440))`,
    ),
  ],
);
// ---- push reminders and notification switches (docs/notifications.md) -----------------------

/** The server's VAPID key pair (one row, id 1), made at first start by whichever process comes first. */
export const pushVapidKeys = pgTable(
  'push_vapid_keys',
  {
    id: smallint('id').primaryKey().default(1),
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [check('push_vapid_keys_one_row_check', sql`${t.id} = 1`)],
);

/** A browser's push subscription (its push service endpoint and keys); one endpoint belongs to one person. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId, t.createdAt),
    check('push_subscriptions_endpoint_check', sql`length(${t.endpoint}) <= 2048`),
    check('push_subscriptions_keys_check', sql`length(${t.p256dh}) <= 100 AND length(${t.auth}) <= 40`),
  ],
);

/** A person's switch of one event on one channel; a missing row is the default (docs/notifications.md#switches). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.event, t.channel] }),
    check('notification_preferences_event_check', sql`${t.event} IN ('check-in-open', 'released', 'approval-decided', 'booked-by-others')`),
    check('notification_preferences_channel_check', sql`${t.channel} IN ('push', 'mail')`),
  ],
);

/** The reservations whose "check-in is open" reminder was queued (written by modules/attendance, once each). */
export const checkInReminders = pgTable(
  'check_in_reminders',
  {
    reservationId: uuid('reservation_id')
      .primaryKey()
      .references(() => reservations.id, { onDelete: 'cascade' }),
    queuedAt: timestamptz('queued_at').notNull(),
  },
  (t) => [index('check_in_reminders_queued_idx').on(t.queuedAt)],
);
// ---- people and privacy (docs/people.md, migrations 0031 and 0032) --------------------------

/**
 * The organisation's settings (one row, id 1; written only by modules/organisation): what colleagues
 * see of each other's bookings and whether attendance is shown as aggregates only
 * (docs/people.md#the-organisations-settings). Later features add their columns here.
 */
export const organisationSettings = pgTable(
  'organisation_settings',
  {
    id: smallint('id').primaryKey(),
    nameVisibility: text('name_visibility').notNull().default('nobody'),
    worksCouncilMode: boolean('works_council_mode').notNull().default(true),
    /** The language of everyone who chose none (migration 0034; docs/i18n.md#choosing-the-language); null: DEFAULT_LANGUAGE. */
    defaultLanguage: text('default_language'),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [
    check('organisation_settings_one_row', sql`${t.id} = 1`),
    check('organisation_settings_name_visibility_check', sql`${t.nameVisibility} IN ('everyone', 'teams', 'nobody')`),
    check('organisation_settings_default_language_check', sql`${t.defaultLanguage} IN ('en', 'de', 'fr')`),
  ],
);

/** A person's privacy switches (docs/people.md#a-persons-switches); no row: both off. Written only by modules/people. */
export const personPrivacy = pgTable('person_privacy', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  hideBookings: boolean('hide_bookings').notNull().default(false),
  bookAnonymously: boolean('book_anonymously').notNull().default(false),
  modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
});

/** The colleagues a person starred for their week view (docs/people.md#the-week-view). Written only by modules/people. */
export const starredPeople = pgTable(
  'starred_people',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    starredId: uuid('starred_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.starredId] }),
    index('starred_people_starred_idx').on(t.starredId),
    check('starred_people_not_self_check', sql`${t.userId} <> ${t.starredId}`),
  ],
);

/** The lobby displays' tokens, one office each, stored as their SHA-256 (docs/people.md#the-lobby-display). Written only by modules/displays. */
export const displayTokens = pgTable(
  'display_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('display_tokens_hash_key').on(t.tokenHash),
    index('display_tokens_department_idx').on(t.departmentId, t.createdAt),
    check('display_tokens_name_check', sql`length(${t.name}) BETWEEN 1 AND 100`),
  ],
);

// ---- preferences: a person's own settings (docs/i18n.md#choosing-the-language) ---------------

/** A person's language (null: the server's DEFAULT_LANGUAGE), migration 0033; written only by modules/preferences. */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    language: text('language'),
    modifiedAt: timestamptz('modified_at').notNull().defaultNow(),
  },
  (t) => [check('user_preferences_language_check', sql`${t.language} IN ('en', 'de', 'fr')`)],
);
