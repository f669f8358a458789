/**
 * Statements per request (docs/benchmarks.md#statements-per-request): each scenario's request is
 * sent a few times to the service running in this process (src/app.ts registered into Fastify, as
 * the tests do) on the bench's database, and the SQL statements sent while it is answered are
 * counted: on the PostgreSQL server on the wire (wire-counter.ts: whatever layer sends them); on
 * the embedded one, reached over a Unix socket, through openDatabase's onQuery hook (what drizzle sends).
 */
import Fastify, { type InjectOptions } from 'fastify';
import { BENCH_PRIVACY } from './people.js';
import deskbook, { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseHandle, QueryListener } from '../../src/db/client.js';
import { BENCH_USER_AGENT, BenchFailure } from './database.js';
import type { WireCounter } from './wire-counter.js';
import type { BenchContext, Load, Scenario, ScenarioId } from './kit.js';

export interface StatementCount {
  /** The first request of the scenario: it may open a connection or fill a cache. */
  first: number;
  /** Median over the repeats after the first. */
  median: number;
  min: number;
  max: number;
  /** Statuses of all the requests, the first included (a count of a refused request would mean little). */
  statuses: number[];
}

export type OpenCountedDatabase = (onQuery: QueryListener) => Promise<DatabaseHandle>;

/** The headers, path and body of the next request a scenario's autocannon options describe. */
export function requestOf(load: Load): InjectOptions {
  const headers: Record<string, string> = { ...(load.headers as Record<string, string> | undefined) };
  load.setupClient?.({ setHeaders: (more: Record<string, string>) => Object.assign(headers, more) } as never);
  const first = load.requests?.[0] ?? {};
  let request = { method: load.method ?? 'GET', path: first.path ?? '/', headers, body: (first.body ?? load.body) as string | undefined };
  if (first.setupRequest) request = { ...request, ...(first.setupRequest(request as never, {}) as Partial<typeof request>) };
  return { method: request.method as InjectOptions['method'], url: request.path, headers: { ...headers, ...request.headers }, payload: request.body };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Opens the database with a counter, builds the service in process, signs in (as the server's
 * scenarios do), and counts 1 + `repeats` requests of each app scenario, one after the other.
 */
export async function countStatements(options: {
  open: OpenCountedDatabase;
  /** Count on the wire (PostgreSQL; `open` then connects through it) instead of through onQuery. */
  wire?: WireCounter;
  scenarios: readonly Scenario[];
  context: Omit<BenchContext, 'appUrl' | 'referenceUrl' | 'userTokens' | 'adminToken'>;
  adminEmail: string;
  users: number;
  repeats: number;
}): Promise<Map<ScenarioId, StatementCount>> {
  let counting = false;
  let hooked = 0;
  const database = await options.open(() => {
    if (counting) hooked++;
  });
  const { wire } = options;
  const begin = () => {
    hooked = 0;
    if (wire) wire.count = 0;
    counting = true;
    if (wire) wire.counting = true;
  };
  const end = () => {
    counting = false;
    if (wire) wire.counting = false;
    return wire ? wire.count : hooked;
  };
  // The settings of the server under test where they matter here; no log, no request log.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    REQUEST_LOG: 'false',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000',
    EXPENSIVE_CONCURRENCY_PER_USER: '1000',
    SERIES_PER_USER: '10000',
  });
  const app = Fastify(serverOptions(config, false));
  try {
    await app.register(deskbook, { config, database });
    await app.ready();
    const signIn = async (email: string) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'user-agent': BENCH_USER_AGENT },
        payload: { email, password: options.context.password },
      });
      if (response.statusCode !== 200) throw new BenchFailure(`Signing in as ${email} (in process) answered ${response.statusCode}: ${response.body}`);
      return response.json<{ accessToken: string }>().accessToken;
    };
    const context: BenchContext = {
      ...options.context,
      appUrl: '',
      referenceUrl: '',
      adminToken: await signIn(options.adminEmail),
      userTokens: [],
    };
    for (const user of options.context.users.slice(0, options.users)) context.userTokens.push(await signIn(user.email));
    const privacy = await app.inject({
      method: 'PATCH',
      url: '/api/organisation/settings',
      headers: { 'user-agent': BENCH_USER_AGENT, authorization: `Bearer ${context.adminToken}` },
      payload: BENCH_PRIVACY,
    });
    if (privacy.statusCode !== 200)
      throw new BenchFailure(`Setting the organisation's privacy settings (in process) answered ${privacy.statusCode}: ${privacy.body}`);

    const counts = new Map<ScenarioId, StatementCount>();
    for (const scenario of options.scenarios.filter((s) => s.server === 'app')) {
      const load = scenario.load(context);
      const perRequest: number[] = [];
      const statuses: number[] = [];
      let first: number | undefined;
      for (let i = 0; i <= options.repeats; i++) {
        const request = requestOf(load);
        begin();
        let status: number;
        let sent: number;
        try {
          status = (await app.inject(request)).statusCode;
        } finally {
          sent = end();
        }
        statuses.push(status);
        if (first === undefined) first = sent;
        else perRequest.push(sent);
      }
      counts.set(scenario.id, { first: first!, median: median(perRequest), min: Math.min(...perRequest), max: Math.max(...perRequest), statuses });
    }
    return counts;
  } finally {
    await app.close();
    await database.close();
  }
}
