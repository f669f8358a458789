/**
 * Statements per request (docs/benchmarks.md#statements-per-request): each scenario's request is
 * sent a few times to the service running in this process (src/app.ts registered into Fastify, as
 * the tests do) on the bench's database, and the SQL statements the database driver is sent while
 * it is answered are counted through openDatabase's onQuery hook.
 */
import Fastify, { type InjectOptions } from 'fastify';
import deskbook, { serverOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseHandle, QueryListener } from '../../src/db/client.js';
import { BENCH_USER_AGENT, BenchFailure } from './database.js';
import type { BenchContext, Load, Scenario, ScenarioId } from './kit.js';

export interface StatementCount {
  /** Median over the repeats. */
  median: number;
  min: number;
  max: number;
  /** Statuses of the counted requests (a count of a refused request would mean little). */
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
 * scenarios do), and counts `repeats` requests of each app scenario, one after the other.
 * `prepare` fills the context's tokens by signing in through the given function.
 */
export async function countStatements(options: {
  open: OpenCountedDatabase;
  scenarios: readonly Scenario[];
  context: Omit<BenchContext, 'appUrl' | 'referenceUrl' | 'userTokens' | 'adminToken'>;
  adminEmail: string;
  users: number;
  repeats: number;
}): Promise<Map<ScenarioId, StatementCount>> {
  let counting = false;
  let sent = 0;
  const database = await options.open(() => {
    if (counting) sent++;
  });
  // The settings of the server under test where they matter here; no log, no request log.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    REQUEST_LOG: 'false',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000',
    EXPENSIVE_CONCURRENCY_PER_USER: '1000',
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

    const counts = new Map<ScenarioId, StatementCount>();
    for (const scenario of options.scenarios.filter((s) => s.server === 'app')) {
      const load = scenario.load(context);
      const perRequest: number[] = [];
      const statuses: number[] = [];
      for (let i = 0; i < options.repeats; i++) {
        const request = requestOf(load);
        sent = 0;
        counting = true;
        let status: number;
        try {
          status = (await app.inject(request)).statusCode;
        } finally {
          counting = false;
        }
        perRequest.push(sent);
        statuses.push(status);
      }
      counts.set(scenario.id, { median: median(perRequest), min: Math.min(...perRequest), max: Math.max(...perRequest), statuses });
    }
    return counts;
  } finally {
    await app.close();
    await database.close();
  }
}
