/**
 * Typed configuration read from the environment. Every key has a doc line, a default (or
 * none when optional) and a parser; `loadConfig` reports every bad key at once so start-up
 * fails fast with a message naming them. docs/configuration.md is generated from this table.
 */

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

interface KeySpec<T> {
  doc: string;
  /** Raw default as it would be written in the environment; undefined = optional, no default. */
  default?: string;
  parse: (raw: string) => T;
  /** The key's former name, read when the key itself is unset (a renamed key keeps working). */
  formerly?: string;
}

const fail = (message: string): never => {
  throw new Error(message);
};

const integer =
  (min: number, max: number) =>
  (raw: string): number => {
    if (!/^\d+$/.test(raw.trim())) fail(`must be a whole number from ${min} to ${max}`);
    const value = Number(raw);
    if (value < min || value > max) fail(`must be a whole number from ${min} to ${max}`);
    return value;
  };

const boolean = (raw: string): boolean => {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  return fail('must be true or false');
};

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Durations are written `90s`, `15m`, `12h`, `30d`, `500ms`, or a bare number of seconds. */
const duration =
  (minMs: number, maxMs: number) =>
  (raw: string): number => {
    const match = /^(\d+)(ms|s|m|h|d)?$/.exec(raw.trim());
    if (!match) return fail('must be a duration such as 30s, 15m, 12h or 30d');
    const ms = Number(match[1]) * DURATION_UNITS[match[2] ?? 's']!;
    if (ms < minMs || ms > maxMs) fail(`must be between ${minMs / 1000}s and ${maxMs / 1000}s`);
    return ms;
  };

const text =
  (options: { min?: number; max?: number; pattern?: RegExp; hint?: string } = {}) =>
  (raw: string): string => {
    const { min = 1, max = 10_000, pattern, hint } = options;
    if (raw.length < min || raw.length > max) fail(`must be ${min} to ${max} characters long`);
    if (pattern && !pattern.test(raw)) fail(hint ?? `must match ${pattern}`);
    return raw;
  };

const oneOf =
  <T extends string>(...values: T[]) =>
  (raw: string): T => {
    const value = raw.trim().toLowerCase() as T;
    if (!values.includes(value)) fail(`must be one of ${values.join(', ')}`);
    return value;
  };

const url =
  (...protocols: string[]) =>
  (raw: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      return fail('must be a URL');
    }
    if (!protocols.includes(parsed.protocol)) fail(`must be a ${protocols.join(' or ')} URL`);
    return raw;
  };

/** `false`, `true`, a hop count, or a comma-separated list of proxy addresses/CIDRs (Fastify's trustProxy). */
const trustProxy = (raw: string): boolean | number | string[] => {
  const value = raw.trim();
  if (/^\d+$/.test(value)) return Number(value);
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0 || entries.some((entry) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry))) {
    fail('must be true, false, a hop count, or a comma-separated list of addresses or CIDRs');
  }
  return entries;
};

/** A local time of day, `HH:MM` (24-hour), as minutes after midnight. */
const clockTime = (raw: string): number => {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw.trim());
  if (!match) return fail('must be a time of day HH:MM, e.g. 18:00');
  return Number(match[1]) * 60 + Number(match[2]);
};

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const specs = {
  PORT: { doc: 'TCP port the HTTP server listens on.', default: '8080', parse: integer(0, 65535) },
  HOST: { doc: 'Address the HTTP server binds to (0.0.0.0 to listen on every interface).', default: '127.0.0.1', parse: text({ max: 255 }) },
  PUBLIC_URL: {
    doc: 'Base URL people reach the service at: desk QR codes, calendar links and links sent by e-mail point there. Unset: http://localhost:<PORT>, which reaches nobody else; the start-up log and the web app (to admins) then warn (docs/configuration.md#public-url).',
    default: 'http://localhost:8080',
    parse: url('http:', 'https:'),
  },
  DATABASE_URL: {
    doc: 'PostgreSQL connection URL (postgres://user:pass@host:5432/db). A `?host=/socket/dir` query names a Unix socket directory, as in libpq. Unset: the embedded PostgreSQL 17 under DATA_DIR (docs/deployment.md#the-embedded-postgresql).',
    parse: url('postgres:', 'postgresql:'),
  },
  DATA_DIR: {
    doc: 'Directory of the embedded PostgreSQL when DATABASE_URL is unset: its cluster lives in DATA_DIR/postgres, and one Deskbook server at a time may use it (a second one stops with a message naming the first).',
    default: './data',
    parse: text({ max: 4096 }),
  },
  DATABASE_POOL_SIZE: { doc: 'Maximum PostgreSQL connections per server process.', default: '10', parse: integer(1, 500) },
  DATABASE_POOLER: {
    doc: 'transaction: DATABASE_URL reaches PostgreSQL through a pooler in transaction mode (PgBouncer): no prepared statements nor session settings; set statement_timeout on the database role instead (docs/deployment.md). none: a direct connection.',
    default: 'none',
    parse: oneOf('none', 'transaction'),
  },
  DATABASE_CONNECT_TIMEOUT: {
    doc: 'How long to wait for a PostgreSQL connection before answering 503 (once one connection fails, requests answer 503 at once until the database answers again).',
    default: '5s',
    parse: duration(500, 300_000),
  },
  DATABASE_STATEMENT_TIMEOUT: {
    doc: 'A statement running longer is cancelled and the request answers 503.',
    default: '30s',
    parse: duration(100, 3_600_000),
  },
  DATABASE_READ_URL: {
    doc: 'PostgreSQL URL of a streaming read replica of DATABASE_URL (optional). Search, reservation lists, floor-plan availability, calendar feeds and statistics read it while it holds every write they must show (the caller’s own at once); everything else, and every check that guards a write, reads the primary (docs/deployment.md). Reached like DATABASE_URL (same pool size and DATABASE_POOLER).',
    parse: url('postgres:', 'postgresql:'),
  },
  DATABASE_READ_MAX_LAG: {
    doc: 'With DATABASE_READ_URL: how stale a read of others’ data may be. A replica further behind the primary serves nothing until it catches up; a failed one serves nothing for 5 s.',
    default: '5s',
    parse: duration(1000, 3_600_000),
  },
  ADMIN_EMAIL: {
    doc: 'E-mail of the first admin, created at a start while no admin exists at all (and no user has the address; needs ADMIN_PASSWORD). Once any admin exists it is ignored: a deleted admin does not come back.',
    parse: text({ max: 200, pattern: EMAIL, hint: 'must be an e-mail address' }),
  },
  ADMIN_PASSWORD: { doc: 'Password of the first admin created from ADMIN_EMAIL (8 to 256 characters).', parse: text({ min: 8, max: 256 }) },
  PASSWORD_CHANGE_AFTER_ADMIN_SET: {
    doc: 'A password an admin sets for someone else must be replaced by that person at their next sign-in, as a generated one is (docs/behaviour.md#passwords-chosen-by-someone-else). false: it may be kept.',
    default: 'true',
    parse: boolean,
  },
  JWT_SECRET: {
    doc: 'Secret (at least 32 characters) that signs tokens. Unset: a random secret is generated once and kept in the database, shared by every server process.',
    parse: text({ min: 32, max: 1024 }),
  },
  ACCESS_TOKEN_TTL: { doc: 'Lifetime of an access token.', default: '15m', parse: duration(10_000, 86_400_000) },
  REFRESH_TOKEN_TTL: { doc: 'Lifetime of a refresh token; each refresh starts it anew.', default: '30d', parse: duration(60_000, 366 * 86_400_000) },
  WEB_SESSION_IDLE_TTL: {
    doc: "Lifetime of the web app's session cookie without a refresh (at most REFRESH_TOKEN_TTL): an open tab refreshes it, so it ends this long after the browser's last tab closed (docs/sessions.md).",
    default: '3d',
    parse: duration(60_000, 366 * 86_400_000),
  },
  LOGIN_MAX_FAILURES_PER_ACCOUNT: {
    doc: 'Failed sign-ins of one account from one client address allowed per LOGIN_ACCOUNT_WINDOW; then that address (only that one) gets 429 for that account until the window ends. Also counts wrong current passwords of PUT /api/self/password.',
    default: '10',
    parse: integer(1, 1_000_000),
  },
  LOGIN_ACCOUNT_WINDOW: {
    doc: "Window of LOGIN_MAX_FAILURES_PER_ACCOUNT; an account's failures from everywhere (LOGIN_DELAY_AFTER_FAILURES) are forgotten after this long without one.",
    default: '15m',
    parse: duration(1000, 86_400_000),
  },
  LOGIN_DELAY_AFTER_FAILURES: {
    doc: 'Failed sign-ins of one account, from anywhere, after which an address that already failed on it must wait LOGIN_DELAY_BASE, doubling with each further failure up to LOGIN_DELAY_MAX, between password checks (429). Addresses without a failure on the account are not held up.',
    default: '5',
    parse: integer(1, 1_000_000),
  },
  LOGIN_DELAY_BASE: { doc: 'First wait of LOGIN_DELAY_AFTER_FAILURES (never more than LOGIN_DELAY_MAX).', default: '1s', parse: duration(1000, 3_600_000) },
  LOGIN_DELAY_MAX: {
    doc: 'Longest wait of LOGIN_DELAY_AFTER_FAILURES; keep it short, as an owner who mistyped from the attacked address waits it too. Never more than LOGIN_ACCOUNT_WINDOW.',
    default: '1m',
    parse: duration(1000, 86_400_000),
  },
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: {
    doc: 'Sign-in, forgot and reset attempts allowed from one client address (an IPv6 address counts by its /64) per LOGIN_ADDRESS_WINDOW before 429.',
    default: '100',
    parse: integer(1, 1_000_000),
  },
  LOGIN_ADDRESS_WINDOW: { doc: 'Window for LOGIN_MAX_ATTEMPTS_PER_ADDRESS.', default: '1m', parse: duration(1000, 86_400_000) },
  TRUST_PROXY: {
    doc: "Whether the client address comes from X-Forwarded-For: false, true, a hop count, or the proxies' addresses/CIDRs.",
    default: 'false',
    parse: trustProxy,
  },
  HTTP_REQUEST_TIMEOUT: {
    doc: 'A request (headers and body) must arrive within this time, or it is answered 408 and its connection closed (slow clients hold no connection longer).',
    default: '30s',
    parse: duration(1000, 3_600_000),
  },
  HTTP_HEADERS_TIMEOUT: {
    doc: 'The request headers must arrive within this time of connecting (or of the previous request), at most HTTP_REQUEST_TIMEOUT: a connection that sends nothing is closed after it too.',
    default: '10s',
    parse: duration(1000, 3_600_000),
  },
  HTTP_KEEP_ALIVE_TIMEOUT: {
    doc: "An idle keep-alive connection is closed after this time. Behind a proxy, keep it longer than the proxy's own idle timeout.",
    default: '72s',
    parse: duration(1000, 600_000),
  },
  HTTP_MAX_CONNECTIONS: {
    doc: 'Open connections one server process accepts; further connections are closed at once.',
    default: '1024',
    parse: integer(1, 1_000_000),
  },
  BODY_LIMIT_BYTES: { doc: 'Largest JSON request body accepted (413 above).', default: '1048576', parse: integer(1024, 100 * 1024 * 1024) },
  LOG_LEVEL: {
    doc: 'Log level: fatal, error, warn, info, debug, trace or silent.',
    default: 'info',
    parse: oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
  },
  REQUEST_LOG: { doc: 'Write one log line per request (method, path, status, time).', default: 'true', parse: boolean },
  LDAP_URL: {
    doc: 'Directory server for users whose `ldap` is true (ldap://host:389 or ldaps://host:636). Unset: directory sign-in is off.',
    parse: url('ldap:', 'ldaps:'),
  },
  LDAP_BIND_DN: { doc: 'DN of the search account used to find a user by e-mail (unset: anonymous search).', parse: text({ max: 1000 }) },
  LDAP_BIND_PASSWORD: { doc: 'Password of LDAP_BIND_DN.', parse: text({ max: 1000 }) },
  LDAP_USER_BASE: { doc: 'Search base for users, e.g. ou=people,dc=example,dc=org (needed unless LDAP_USER_DN_TEMPLATE is set).', parse: text({ max: 1000 }) },
  LDAP_USER_FILTER: {
    doc: 'Search filter; {email} is replaced by the escaped e-mail address given at sign-in.',
    default: '(mail={email})',
    parse: text({ max: 1000, pattern: /^\(.*\{email\}.*\)$/, hint: 'must be a parenthesised filter containing {email}' }),
  },
  LDAP_USER_DN_TEMPLATE: {
    doc: 'Instead of search-then-bind: bind directly as this DN; {email} and {username} (the part before @) are replaced, escaped. Names come from the entry itself.',
    parse: text({ max: 1000, pattern: /\{(email|username)\}/, hint: 'must contain {email} or {username}' }),
  },
  LDAP_TIMEOUT: { doc: 'Connect and operation timeout for the directory; past it sign-in answers 503.', default: '5s', parse: duration(100, 120_000) },
  LDAP_STARTTLS: { doc: 'Upgrade an ldap:// connection with StartTLS before binding.', default: 'false', parse: boolean },
  LDAP_TLS_CA_FILE: { doc: 'PEM file of the CA that signed the directory certificate (ldaps:// or StartTLS).', parse: text({ max: 4096 }) },
  LDAP_TLS_REJECT_UNAUTHORIZED: { doc: 'Refuse a directory certificate that does not verify.', default: 'true', parse: boolean },
  LDAP_AUTO_CREATE: {
    doc: 'Create the local USER (ldap true, names from givenName/sn) at the first successful directory sign-in.',
    default: 'false',
    parse: boolean,
  },
  LDAP_ADMIN_GROUP: {
    doc: 'DN of a groupOfNames in the directory, e.g. cn=deskbook-admins,ou=groups,dc=example,dc=org: at each directory sign-in its members become ADMIN and everyone else USER (the last enabled admin is never demoted). Unset: roles are managed in Deskbook.',
    parse: text({ max: 1000 }),
  },
  OIDC_ISSUER: {
    doc: 'Issuer URL of the OpenID Connect provider (its discovery document is at <issuer>/.well-known/openid-configuration). Unset: single sign-on is off. The redirect URL to register at the provider is PUBLIC_URL + /api/auth/oidc/callback.',
    parse: url('http:', 'https:'),
  },
  OIDC_ALLOW_HTTP: {
    doc: 'Accept a plain-http OIDC_ISSUER that is not on this machine (localhost, 127.0.0.0/8, ::1 are always accepted). The client secret and the ID token then travel in clear; a warning is logged at start. Only for a provider on a network you trust.',
    default: 'false',
    parse: boolean,
  },
  OIDC_CLIENT_ID: { doc: 'Client id of Deskbook at the provider (required with OIDC_ISSUER).', parse: text({ max: 1000 }) },
  OIDC_CLIENT_SECRET: {
    doc: 'Client secret of Deskbook at the provider (required with OIDC_ISSUER; sent as client_secret_basic).',
    parse: text({ max: 1000 }),
  },
  OIDC_SCOPES: {
    doc: 'Scopes asked for, separated by spaces; must include openid. Add the scope that puts OIDC_ROLE_CLAIM into the ID token if the provider needs one.',
    default: 'openid email profile',
    parse: text({ max: 1000, pattern: /(^|\s)openid(\s|$)/, hint: 'must include openid' }),
  },
  OIDC_DISPLAY_NAME: { doc: 'Name of the provider on the sign-in button ("Sign in with …").', default: 'single sign-on', parse: text({ max: 100 }) },
  OIDC_ROLE_CLAIM: {
    doc: 'ID token (or userinfo) claim holding the groups or roles, e.g. groups or roles; a string or a list. Unset: roles are not taken from the provider.',
    parse: text({ max: 200 }),
  },
  OIDC_ADMIN_VALUES: {
    doc: 'Comma-separated values of OIDC_ROLE_CLAIM that make a person ADMIN; everyone else signs in as USER. Required with OIDC_ROLE_CLAIM.',
    parse: text({ max: 4000 }),
  },
  OIDC_GROUPS_CLAIM: {
    doc: "ID token (or userinfo) claim holding the groups, a string or a list; its values are matched to the teams' oidcGroup at each single sign-on (docs/policies.md#teams). Add the scope that puts it into the ID token if the provider needs one.",
    default: 'groups',
    parse: text({ max: 200 }),
  },
  OIDC_AUTO_CREATE: {
    doc: 'Create a local USER at the first single sign-on of someone with no account here (names from given_name/family_name, e-mail from a verified email claim).',
    default: 'false',
    parse: boolean,
  },
  OIDC_TIMEOUT: {
    doc: 'How long to wait for the OpenID provider (discovery, keys, token endpoint); past it sign-in answers 503.',
    default: '5s',
    parse: duration(100, 120_000),
  },
  SMTP_URL: {
    doc: 'Mail server for password-reset, account, invitation and check-in mails, e.g. smtp://user:pass@mail.example.org:587 or smtps://…:465. Unset: no mail is sent (logged instead), and the web app says so where it would promise one (docs/configuration.md#mail).',
    parse: url('smtp:', 'smtps:'),
  },
  MAIL_FROM: { doc: 'Sender of the mails.', default: 'Deskbook <deskbook@localhost>', parse: text({ max: 400 }) },
  PASSWORD_RESET_TTL: { doc: 'How long a password-reset link works.', default: '1h', parse: duration(60_000, 7 * 86_400_000) },
  DEFAULT_LANGUAGE: {
    doc: "The language of the web app, mails and calendar entries for people who chose none on their profile, until an admin sets the organisation's default language (Organisation page): en (English), de (German) or fr (French). Pages before sign-in follow the browser instead (docs/i18n.md#choosing-the-language).",
    default: 'en',
    parse: oneOf('en', 'de', 'fr'),
  },
  PASSWORD_MAIL_COOLDOWN: {
    doc: 'A "forgot password" link is mailed to one account at most once per this time: further requests meanwhile get the same 200 answer but no mail, and the link already mailed keeps working. 0 turns the cooldown off.',
    default: '5m',
    parse: duration(0, 86_400_000),
  },
  PASSWORD_HASH_COST: {
    doc: 'Test suites only. standard: passwords are hashed with argon2id at OWASP’s minimum cost (19 MiB, 2 passes). minimal: the lowest cost argon2id allows (64 KiB, 1 pass), which a guessing attack breaks in no time; accepted only with NODE_ENV=test and refused otherwise, so that a test suite signing in thousands of times runs faster (docs/testing.md#password-hashing-in-tests).',
    default: 'standard',
    parse: oneOf('standard', 'minimal'),
  },
  ACCOUNT_SETUP_TTL: { doc: 'How long the "set your password" link of a new account works.', default: '72h', parse: duration(60_000, 30 * 86_400_000) },
  IMAGE_MAX_BYTES: { doc: 'Largest image upload (department images, avatars); 413 above.', default: '5242880', parse: integer(1024, 100 * 1024 * 1024) },
  IMAGE_MAX_PIXELS: {
    doc: 'Largest image in pixels (width × height), refused before decoding (413); half as many with 16 bits per channel.',
    default: '40000000',
    parse: integer(1, 1_000_000_000),
  },
  AVATAR_MAX_PIXELS: {
    doc: 'Largest avatar in pixels (width × height), refused before decoding (413); half as many with 16 bits per channel. Avatars are kept at 512×512; 16 MP takes a 12 MP phone photo or a 5K screenshot.',
    default: '16000000',
    parse: integer(1, 1_000_000_000),
  },
  IMAGE_DECODE_MEMORY: {
    doc: 'Bytes of decoded pixels (width × height × channels × bytes per sample) the image uploads of a process may decode at once; more wait in line (beyond 16 waiting: 503). A larger image is decoded alone.',
    default: '67108864',
    parse: integer(1_048_576, 64 * 1024 * 1024 * 1024),
  },
  RESERVATION_MAX_LENGTH: { doc: 'Longest reservation a USER may make (admins are exempt).', default: '24h', parse: duration(60_000, 366 * 86_400_000) },
  RESERVATION_MIN_LENGTH: {
    doc: 'Shortest reservation a USER may make (admins are exempt); 0 allows any length. Each reservation costs the availability and floor-plan reads, so one-second bookings are refused.',
    default: '15m',
    parse: duration(0, 86_400_000),
  },
  RESERVATION_MAX_FUTURE: {
    doc: 'Most reservations a USER may hold that have not ended yet (bookings and series occurrences alike; admins are exempt, also when they book for a user). One more is 409 RESERVATION_LIMIT_REACHED.',
    default: '200',
    parse: integer(1, 100_000),
  },
  RESERVATION_HORIZON: {
    doc: 'How far ahead of now a USER may start a reservation (admins are exempt).',
    default: '90d',
    parse: duration(60_000, 3660 * 86_400_000),
  },
  RESERVATION_ONE_PER_USER: {
    doc: 'Refuse a reservation that overlaps another one of the same user (409). Enforced by the database for reservations written while it is on.',
    default: 'true',
    parse: boolean,
  },
  CHECK_IN_REQUIRED: {
    doc: 'Whether reservations must be checked in (docs/behaviour.md#attendance); a department may override it. Applies to reservations starting after a change; off, nothing is ever released.',
    default: 'false',
    parse: boolean,
  },
  CHECK_IN_OPENS_BEFORE: {
    doc: 'Check-in opens this long before a reservation starts (per-department override).',
    default: '15m',
    parse: duration(0, 86_400_000),
  },
  CHECK_IN_GRACE: {
    doc: 'A reservation nobody checked in by its start plus this is released: its end is cut to the release time and it is marked NO_SHOW (per-department override).',
    default: '20m',
    parse: duration(0, 86_400_000),
  },
  WALK_IN_UNTIL: {
    doc: "A walk-in booking (POST /api/desks/{id}/walk-in) lasts at most until this local time (HH:MM) in the office's time zone, or until the desk's next reservation.",
    default: '18:00',
    parse: clockTime,
  },
  ATTENDANCE_RELEASE_INTERVAL: {
    doc: 'How often each server process looks for reservations to release (the work is claimed in the database, so processes never do it twice); their mails go out through the outbox. At most 1 minute, so that a release is never later than that.',
    default: '15s',
    parse: duration(100, 60_000),
  },
  CHECK_IN_REMINDER_INTERVAL: {
    doc: 'How often each server process looks for reservations whose check-in has just opened, to push their owners a reminder (docs/notifications.md#events; the reservations are claimed in the database, so nobody is reminded twice). 0 turns the reminders off in this process (another process sends them).',
    default: '1m',
    parse: duration(0, 3_600_000),
  },
  OUTBOX_INTERVAL: {
    doc: 'How often each server process looks for mails to send in the outbox (password links, release and invitation mails; the work is claimed in the database, so processes never send one twice). A password link queued by a request is sent at once, without waiting for it. 0 turns sending off in this process (the mails wait for another process). Formerly CALENDAR_MAIL_INTERVAL, still read when this is unset.',
    default: '5s',
    parse: duration(0, 3_600_000),
    formerly: 'CALENDAR_MAIL_INTERVAL',
  },
  OUTBOX_LEASE: {
    doc: 'How long a process may take to send the mails it claimed from the outbox; after that (it crashed or hangs) another process sends them again. Formerly CALENDAR_MAIL_LEASE, still read when this is unset.',
    default: '2m',
    parse: duration(1000, 3_600_000),
    formerly: 'CALENDAR_MAIL_LEASE',
  },
  CALENDAR_MAILS_PER_HOUR: {
    doc: 'Invitation mails one person is sent per hour at most; what changes beyond that waits and goes out folded into one mail. People are served in turn, so one person’s changes never hold up another’s mail.',
    default: '10',
    parse: integer(1, 1000),
  },
  MAIL_RETENTION: {
    doc: 'How long a sent mail stays in the outbox (its kind, recipient and what the mail was made from; never a password link) before housekeeping deletes it.',
    default: '7d',
    parse: duration(60_000, 365 * 86_400_000),
  },
  OUTBOX_DEAD_RETENTION: {
    doc: 'How long a mail given up after its tries (dead: admins see it in GET /api/admin/outbox?status=dead and may retry it) stays in the outbox before housekeeping deletes it.',
    default: '30d',
    parse: duration(60_000, 365 * 86_400_000),
  },
  PUSH_SUBJECT: {
    doc: 'Contact the push services are given with every push (the VAPID subject): a mailto: address or an https: URL. Unset: PUBLIC_URL when it is https and not this machine, else mailto: the address of MAIL_FROM (docs/notifications.md#configuration).',
    parse: text({ max: 400, pattern: /^(mailto:\S+@\S+|https:\/\/\S+)$/, hint: 'must be a mailto: address or an https: URL' }),
  },
  PUSH_ENDPOINT_HOSTS: {
    doc: 'The push services a browser subscription may point at, as host names separated by commas; a leading dot also admits every host below it. The default admits those of Chrome/Edge (FCM), Firefox (Mozilla), Safari (Apple) and Windows (WNS). Deskbook sends pushes only to https endpoints on port 443 of these hosts, so a subscription cannot make it call anything else (docs/notifications.md#threat-model).',
    default: 'fcm.googleapis.com,updates.push.services.mozilla.com,.push.apple.com,.notify.windows.com',
    parse: text({ max: 2000, pattern: /^\s*\.?[a-z0-9.-]+(\s*,\s*\.?[a-z0-9.-]+)*\s*$/i, hint: 'must be host names separated by commas' }),
  },
  PUSH_ALLOW_LOOPBACK: {
    doc: 'Also accept subscriptions whose endpoint is http(s) on this machine (localhost, 127.0.0.0/8, ::1), any port: for tests that run their own push service. Never on a real service.',
    default: 'false',
    parse: boolean,
  },
  PUSH_SUBSCRIPTIONS_PER_USER: {
    doc: 'Browsers (push subscriptions) one person may have at once; another answers 409 TOO_MANY_PUSH_SUBSCRIPTIONS.',
    default: '10',
    parse: integer(1, 100),
  },
  PUSH_TIMEOUT: {
    doc: 'How long one push may take to be accepted by the push service before it counts as failed and is tried again later.',
    default: '10s',
    parse: duration(100, 120_000),
  },
  PUSH_TTL: {
    doc: 'How long a push service keeps a push for a browser that is offline before dropping it (the TTL header): a reminder that comes later than this is worth nothing.',
    default: '1h',
    parse: duration(0, 7 * 86_400_000),
  },
  RESERVATION_WRITES_PER_MINUTE: {
    doc: 'Reservation and series writes (book, change, cancel, check in) one user may make per minute in each server process; more answer 429 TOO_MANY_WRITES with Retry-After.',
    default: '60',
    parse: integer(1, 100_000),
  },
  SERIES_PER_USER: {
    doc: 'Recurring series with occurrences still to come that one person may have; another answers 409 TOO_MANY_SERIES.',
    default: '20',
    parse: integer(1, 10_000),
  },
  EXPENSIVE_CONCURRENCY_PER_USER: {
    doc: 'Searches, statistics and image uploads one user may have running at once in each server process; more answer 429 with Retry-After.',
    default: '3',
    parse: integer(1, 1000),
  },
  SHUTDOWN_DRAIN_DELAY: {
    doc: "On SIGTERM, how long the process goes on serving (with /api/health/ready answering 503) before it stops accepting connections, so a load balancer checking readiness moves traffic away first. Set it above the balancer's check interval × its fall count.",
    default: '0s',
    parse: duration(0, 600_000),
  },
  SHUTDOWN_TIMEOUT: {
    doc: 'On SIGTERM/SIGINT, how long in-flight requests may take before the process exits anyway.',
    default: '10s',
    parse: duration(100, 600_000),
  },
} satisfies Record<string, KeySpec<unknown>>;

type Specs = typeof specs;
type Parsed<K extends keyof Specs> = ReturnType<Specs[K]['parse']>;
export type Config = {
  [K in keyof Specs]: Specs[K] extends { default: string } ? Parsed<K> : Parsed<K> | undefined;
};

export type Environment = Record<string, string | undefined>;

/** How a bad value is echoed in the start-up error: never a secret, nor a password inside a URL. */
function shownValue(key: string, raw: string): string {
  if (key.includes('PASSWORD') || key.includes('SECRET')) return '***';
  if (!key.endsWith('_URL')) return raw;
  try {
    const parsed = new URL(raw);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '***';
  }
}

export function loadConfig(env: Environment = process.env): Config {
  const problems: string[] = [];
  const config: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs) as [string, KeySpec<unknown>][]) {
    const given = env[key] === undefined || env[key] === '' ? (spec.formerly === undefined ? undefined : env[spec.formerly]) : env[key];
    const raw = given === undefined || given === '' ? spec.default : given;
    if (raw === undefined) {
      config[key] = undefined;
      continue;
    }
    try {
      config[key] = spec.parse(raw);
    } catch (error) {
      problems.push(`${key} ${(error as Error).message} (got ${JSON.stringify(shownValue(key, raw))})`);
    }
  }
  // Unset, the public URL follows the port (the table's default shows the default port).
  if ((env.PUBLIC_URL ?? '') === '' && typeof config.PORT === 'number') config.PUBLIC_URL = `http://localhost:${config.PORT}`;
  if (config.ADMIN_EMAIL !== undefined && config.ADMIN_PASSWORD === undefined && !problems.some((p) => p.startsWith('ADMIN_PASSWORD'))) {
    problems.push('ADMIN_PASSWORD is required when ADMIN_EMAIL is set');
  }
  if (
    typeof config.HTTP_HEADERS_TIMEOUT === 'number' &&
    typeof config.HTTP_REQUEST_TIMEOUT === 'number' &&
    config.HTTP_HEADERS_TIMEOUT > config.HTTP_REQUEST_TIMEOUT
  ) {
    problems.push('HTTP_HEADERS_TIMEOUT must not be longer than HTTP_REQUEST_TIMEOUT');
  }
  if (
    typeof config.RESERVATION_MIN_LENGTH === 'number' &&
    typeof config.RESERVATION_MAX_LENGTH === 'number' &&
    config.RESERVATION_MIN_LENGTH > config.RESERVATION_MAX_LENGTH
  ) {
    problems.push('RESERVATION_MIN_LENGTH must not be longer than RESERVATION_MAX_LENGTH');
  }
  if (config.LDAP_URL !== undefined && config.LDAP_USER_BASE === undefined && config.LDAP_USER_DN_TEMPLATE === undefined) {
    problems.push('LDAP_USER_BASE or LDAP_USER_DN_TEMPLATE is required when LDAP_URL is set');
  }
  if (config.OIDC_ISSUER !== undefined && (config.OIDC_CLIENT_ID === undefined || config.OIDC_CLIENT_SECRET === undefined)) {
    problems.push('OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required when OIDC_ISSUER is set');
  }
  if (typeof config.OIDC_ISSUER === 'string' && plainHttpRemote(config.OIDC_ISSUER) && config.OIDC_ALLOW_HTTP !== true) {
    problems.push('OIDC_ISSUER must be https:// (http:// only for a loopback address, or with OIDC_ALLOW_HTTP=true)');
  }
  if (config.OIDC_ROLE_CLAIM !== undefined && config.OIDC_ADMIN_VALUES === undefined) {
    problems.push('OIDC_ADMIN_VALUES is required when OIDC_ROLE_CLAIM is set');
  }
  // Never on a real service: a test-only cost needs NODE_ENV=test (vitest sets it), not merely "not production".
  if (config.PASSWORD_HASH_COST === 'minimal' && env.NODE_ENV !== 'test') {
    problems.push(`PASSWORD_HASH_COST=minimal is for test suites only and needs NODE_ENV=test (got NODE_ENV=${JSON.stringify(env.NODE_ENV ?? '')})`);
  }
  if (config.DATABASE_READ_URL !== undefined && config.DATABASE_URL === undefined) {
    problems.push('DATABASE_READ_URL needs DATABASE_URL (the embedded database has no replica)');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config as Config;
}

/**
 * Whether an issuer URL is plain http to another machine: the client secret and ID token would
 * cross the network in clear (docs/behaviour.md#single-sign-on-openid-connect).
 */
export function plainHttpRemote(issuer: string): boolean {
  const parsed = new URL(issuer);
  if (parsed.protocol !== 'http:') return false;
  return !loopbackHost(parsed);
}

function loopbackHost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Whether PUBLIC_URL names this machine only (unset, it is http://localhost:<PORT>): desk QR codes,
 * calendar links and links in mails then reach nobody else (docs/configuration.md#public-url).
 */
export function publicUrlIsLocal(config: Pick<Config, 'PUBLIC_URL'>): boolean {
  return loopbackHost(new URL(config.PUBLIC_URL));
}

/** Whether the service can send mail at all (SMTP_URL set); without it no mail leaves (docs/configuration.md#mail). */
export function mailConfigured(config: Pick<Config, 'SMTP_URL'>): boolean {
  return config.SMTP_URL !== undefined;
}

/**
 * The VAPID subject of pushes (docs/notifications.md#configuration): PUSH_SUBJECT, else PUBLIC_URL
 * when it is https and not this machine, else mailto: the address in MAIL_FROM.
 */
export function pushSubject(config: Pick<Config, 'PUSH_SUBJECT' | 'PUBLIC_URL' | 'MAIL_FROM'>): string {
  if (config.PUSH_SUBJECT !== undefined) return config.PUSH_SUBJECT;
  const publicUrl = new URL(config.PUBLIC_URL);
  if (publicUrl.protocol === 'https:' && !loopbackHost(publicUrl)) return publicUrl.origin;
  const address = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  return `mailto:${address}`;
}

/** Whether a URL names this machine (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackUrl(url: URL): boolean {
  return loopbackHost(url);
}

/** Markdown table of every key, used by `npm run docs` and checked by a test. */
export function configurationTable(): string {
  const rows = Object.entries(specs).map(([key, spec]) => {
    const fallback = 'default' in spec ? `\`${spec.default}\`` : '(unset)';
    return `| \`${key}\` | ${fallback} | ${spec.doc.replaceAll('|', '\\|')} |`;
  });
  return ['| Key | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
