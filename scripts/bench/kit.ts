import type { Database } from '../../src/db/client.js';
/**
 * What a bench scenario is made of, apart from the list of them (scenarios.ts), so that
 * feature-scenarios.ts can use the same helpers without importing that list.
 */
import type autocannon from 'autocannon';
import type { Dataset, SeededUser } from './database.js';
import type { Bookings } from './scenarios.js';

/** Everything a scenario's requests are made of; tokens are renewed every round. */
export interface BenchContext {
  appUrl: string;
  referenceUrl: string;
  userTokens: string[];
  adminToken: string;
  users: SeededUser[];
  password: string;
  /** Tomorrow's (the next workday's) 09:00–17:00 UTC: the window the searches look at. */
  searchWindow: { start: string; end: string };
  /** The room of 100 desks the bench adds to the dataset (scripts/bench/database.ts). */
  bigRoom: { departmentId: string; roomId: string };
  /** Criteria that match exactly one seeded department (location, building and floor). */
  department: { location: string; building: string; floor: number };
  bookings: Bookings;
  /** The department whose floor-plan availability is read (scripts/bench/floor-plan.ts). */
  floorPlanDepartmentId: string;
}

/** The part of autocannon's options a scenario decides (the runner adds url, connections, duration). */
export type Load = Omit<autocannon.Options, 'url' | 'connections' | 'duration'>;

/** A scenario's name on the command line (`--only self,desks`); unique among SCENARIOS. */
export type ScenarioId = string;

export interface Scenario {
  id: ScenarioId;
  title: string;
  /** Reference routes run on the bare Fastify process. */
  server: 'reference' | 'app';
  /** Statuses that are an answer, not an error (409 where bookings compete for hot desks). */
  expected: readonly number[];
  /** Also measured at this fixed request rate, for latency below saturation. */
  fixedRate?: number;
  /** Target at the fixed rate: p99 at most this many ms in every round (50 unless set). */
  fixedRateP99Ms?: number;
  /** Shown apart from the main table (sign-in: its cost is the password hash, by design). */
  separate?: boolean;
  /** Target: requests per second at least this share of R1's (PostgreSQL, large dataset). */
  targetRatio?: number;
  /** Target: at most this many SQL statements per request (counted in process, see docs/benchmarks.md#statements-per-request). */
  maxStatements?: number;
  /** Not run on the embedded database (the reference routes R2 and R3 read PostgreSQL). */
  postgresOnly?: boolean;
  /**
   * Set-up on the database before the scenario's statements are counted and its rounds run, and
   * its undoing at the end (PostgreSQL only: the embedded database belongs to the server's process
   * while it runs, so such scenarios are postgresOnly).
   */
  prepare?(db: Database, dataset: Dataset): Promise<void>;
  cleanup?(db: Database): Promise<void>;
  /** Work started before each measured run of the scenario (not the statement count) and stopped after it, e.g. another user's abuse (abuse.ts). */
  background?(context: BenchContext): { stop(): Promise<void> };
  load(context: BenchContext): Load;
}

export const json = { 'content-type': 'application/json' };
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One token per connection, the users taken in turn: 50 connections are 50 signed-in people. */
export function usersOverConnections(context: BenchContext): Pick<Load, 'setupClient'> {
  let next = 0;
  const tokens = context.userTokens;
  return { setupClient: (client) => client.setHeaders(bearer(tokens[next++ % tokens.length]!)) };
}

export const searchAsUsers = (context: BenchContext, path: string, criteria: object): Load => ({
  method: 'POST',
  headers: json,
  body: JSON.stringify(criteria),
  requests: [{ path }],
  ...usersOverConnections(context),
});
