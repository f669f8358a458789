import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import deskbook, { serverOptions } from '../../src/app.js';
import { loadConfig, type Config, type Environment } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { loggerOptions } from '../../src/logging.js';
import type { DirectoryAuthenticator } from '../../src/modules/auth/directory.js';
import type { Clock } from '../../src/shared/clock.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_ONLY_ENV } from './test-env.js';

export const ADMIN_EMAIL = 'admin@example.test';
export const ADMIN_PASSWORD = 'admin-password-1';

/** A clock tests can move: starts at the real time (or `start`) and only moves when told. */
export class TestClock implements Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(date: Date): void {
    this.current = date.getTime();
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  clock: TestClock;
  /** app.inject with JSON handling and an optional bearer token. */
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Signs in and answers the token pair body. */
  login(email: string, password: string, headers?: Record<string, string>): Promise<TokenPairBody>;
  /** Creates a user as admin (and sets a password when given); answers the created User. */
  createUser(input: {
    email: string;
    firstName?: string;
    lastName?: string;
    role?: 'USER' | 'ADMIN';
    password?: string;
    ldap?: boolean;
    enabled?: boolean;
  }): Promise<UserBody>;
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

export interface TokenPairBody {
  accessToken: string;
  refreshToken: string;
  tokenType: string;
  expiresAt: string;
  refreshExpiresAt: string;
  sessionId: string;
  userId: string;
}

export interface UserBody {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  enabled?: boolean;
  ldap?: boolean;
  role?: string;
  hasAvatar: boolean;
}

export interface TestAppOptions {
  env?: Environment;
  clock?: TestClock;
  directory?: DirectoryAuthenticator;
  /** Use an existing database instead of a fresh one (it is then not disposed). */
  database?: TestDatabase;
  /** A read replica of `database` (not disposed either; docs/deployment.md#with-a-read-replica). */
  readDatabase?: DatabaseHandle;
  /** Serve this directory as the built web app (default dist/web). */
  webRoot?: string;
  /** Log as a server does (loggerOptions, the request log on) and hand each JSON line here. */
  logLines?: (line: string) => void;
  /** false: no job on its own timer (the attendance release every 15 s, the approval expiry…): for tests that count statements. */
  timedJobs?: boolean;
}

/** A fresh service on a fresh database, exercised through Fastify's inject (no socket). */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await createTestDatabase());
  // No outbox job unless a test asks for one (drainOutbox sends): its background statements would land in other tests' statement counts.
  // Nor a per-minute limit on one user's reservation writes: tests book fast; the limit's own tests set it.
  const logging = options.logLines ? { LOG_LEVEL: 'debug', REQUEST_LOG: 'true' } : { LOG_LEVEL: 'silent', REQUEST_LOG: 'false' };
  const config = loadConfig({
    ...TEST_ONLY_ENV,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    ...logging,
    OUTBOX_INTERVAL: '0',
    // Nor the check-in reminders, which run at start-up: a test runs them (checkInReminders) when it wants them.
    CHECK_IN_REMINDER_INTERVAL: '0',
    RESERVATION_WRITES_PER_MINUTE: '100000',
    ...options.env,
  });
  const clock = options.clock ?? new TestClock();
  const sink = options.logLines;
  const logger = sink
    ? {
        ...(loggerOptions(config) as object),
        stream: {
          write: (chunk: string) =>
            chunk
              .split('\n')
              .filter(Boolean)
              .forEach((line) => sink(line)),
        },
      }
    : false;
  const app = Fastify(serverOptions(config, logger));
  await app.register(deskbook, {
    config,
    database: database.handle,
    readDatabase: options.readDatabase,
    clock,
    directory: options.directory,
    webRoot: options.webRoot,
    timedJobs: options.timedJobs,
  });
  await app.ready();

  const request: TestApp['request'] = ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

  const login: TestApp['login'] = async (email, password, headers) => {
    const response = await request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers });
    if (response.statusCode !== 200) throw new Error(`login of ${email} failed: ${response.statusCode} ${response.body}`);
    return response.json<TokenPairBody>();
  };

  let cachedAdminToken: string | undefined;
  const adminToken = async () => (cachedAdminToken ??= (await login(ADMIN_EMAIL, ADMIN_PASSWORD)).accessToken);

  const createUser: TestApp['createUser'] = async ({ password, ...input }) => {
    const token = await adminToken();
    const created = await request({ method: 'POST', url: '/api/users', token, payload: { firstName: 'Test', lastName: 'User', ...input } });
    if (created.statusCode !== 200) throw new Error(`create user failed: ${created.statusCode} ${created.body}`);
    const user = created.json<UserBody>();
    if (password !== undefined) {
      const set = await request({ method: 'PUT', url: `/api/users/${user.id}/password`, token, payload: { password } });
      if (set.statusCode !== 204) throw new Error(`set password failed: ${set.statusCode} ${set.body}`);
    }
    return user;
  };

  return {
    app,
    config,
    database,
    clock,
    request,
    login,
    createUser,
    adminToken,
    async close() {
      await app.close();
      if (ownDatabase) await database.dispose();
    },
  };
}

/**
 * Sends every mail of the outbox that is due, waiting for the outbox job's run in flight first,
 * and answers how many went out (docs/testing.md#background-work): a test waits on the work, never sleeps.
 */
export const drainOutbox = (app: FastifyInstance): Promise<number> => app.background.drainOutbox();

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** ISO 8601 in UTC with the Z suffix, as every timestamp on the wire. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** Asserts a problem+json answer and returns its body. */
export function expectProblem(
  response: LightMyRequestResponse,
  status: number,
  code?: string,
): Record<string, unknown> & { errors?: { field: string; message: string }[] } {
  if (response.statusCode !== status) throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`);
  const contentType = String(response.headers['content-type']);
  if (!contentType.startsWith('application/problem+json')) throw new Error(`expected problem+json, got ${contentType}`);
  const body = response.json();
  for (const member of ['type', 'title', 'status', 'detail', 'instance', 'code']) {
    if (!(member in body)) throw new Error(`problem lacks ${member}: ${response.body}`);
  }
  if (body.status !== status) throw new Error(`problem status ${body.status} != ${status}`);
  if (code !== undefined && body.code !== code) throw new Error(`expected code ${code}, got ${body.code}: ${response.body}`);
  if (/\bat .+\(.+:\d+:\d+\)|node_modules|SELECT |INSERT /i.test(response.body)) throw new Error(`problem leaks internals: ${response.body}`);
  return body;
}
