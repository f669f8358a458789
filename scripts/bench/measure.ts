import autocannon from 'autocannon';
import type { Load } from './scenarios.js';

export const CONNECTIONS = 50;

/** One measured run. */
export interface Measurement {
  /** Responses received (any status). */
  responses: number;
  seconds: number;
  /** responses / seconds: from the totals, not autocannon's average of per-second samples. */
  perSecond: number;
  p50: number;
  p99: number;
  /** Responses by status code. */
  statuses: Record<number, number>;
  /** Responses with a status the scenario does not expect, plus socket errors and timeouts. */
  errors: number;
  serverErrors: number;
}

export interface RunOptions {
  url: string;
  load: Load;
  seconds: number;
  expected: readonly number[];
}

/** As many requests as the server answers, over CONNECTIONS connections (autocannon). */
export async function measure(options: RunOptions): Promise<Measurement> {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ ...options.load, url: options.url, connections: CONNECTIONS, duration: options.seconds }, (error, outcome) =>
      error ? reject(error) : resolve(outcome),
    );
  });
  const statuses: Record<number, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statuses[Number(code)] = count;
  const unexpected = Object.entries(statuses).reduce((sum, [code, count]) => (options.expected.includes(Number(code)) ? sum : sum + count), 0);
  const responses = result.requests.total;
  return {
    responses,
    seconds: result.duration,
    perSecond: result.duration > 0 ? responses / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: unexpected + result.errors,
    serverErrors: Object.entries(statuses).reduce((sum, [code, count]) => (Number(code) >= 500 ? sum + count : sum), 0),
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A scenario over all rounds: medians of rate and latency; errors and statuses summed. */
export interface Summary {
  rounds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** The highest p99 of a round (targets that must hold in every round). */
  worstP99: number;
  errors: number;
  serverErrors: number;
  statuses: Record<number, number>;
  /** Median per round of the responses with this status per second. */
  statusPerSecond: Record<number, number>;
}

export function summarize(runs: readonly Measurement[]): Summary {
  const statuses: Record<number, number> = {};
  for (const run of runs) for (const [code, count] of Object.entries(run.statuses)) statuses[Number(code)] = (statuses[Number(code)] ?? 0) + count;
  const statusPerSecond: Record<number, number> = {};
  for (const code of Object.keys(statuses).map(Number))
    statusPerSecond[code] = median(runs.map((run) => (run.seconds > 0 ? (run.statuses[code] ?? 0) / run.seconds : 0)));
  return {
    rounds: runs.length,
    perSecond: median(runs.map((run) => run.perSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    worstP99: Math.max(...runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    serverErrors: runs.reduce((sum, run) => sum + run.serverErrors, 0),
    statuses,
    statusPerSecond,
  };
}
