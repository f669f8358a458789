import type { DatasetCounts, OverlapCounts } from './database.js';
import type { Summary } from './measure.js';
import { outboxMarkdown, type OutboxBench } from './outbox.js';
import { pushMarkdown, type PushBench } from './push.js';
import { SCENARIOS, type ScenarioId } from './scenarios.js';
import type { StatementCount } from './statements.js';

export const MB = 1024 * 1024;

/** The targets besides each scenario's own (targetRatio, maxStatements); each full run lists them beside the results. */
export const TARGETS = {
  fixedRateP99Ms: 50,
  /** "Nothing else gets slower": the booking rate of the write path. */
  bookingsPerSecond: 900,
  rssBytes: 300 * MB,
};

/** The measurements on one database: a PostgreSQL server (BENCH_DATABASE_URL), or the embedded PostgreSQL the server starts itself. */
export interface DatabaseRun {
  kind: 'postgres' | 'embedded';
  /** What the heading says, e.g. "PostgreSQL, database deskbook_large". */
  label: string;
  dataset: DatasetCounts;
  rounds: number;
  warmupSeconds: number;
  seconds: number;
  saturation: Map<ScenarioId, Summary>;
  fixedRate: Map<ScenarioId, Summary>;
  statements: Map<ScenarioId, StatementCount>;
  /** GET /api/self on a second server with REQUEST_LOG=false, measured in the same rounds. */
  requestLogOff?: Summary;
  memory?: { sampledPeak: number; highWaterMark: number | undefined };
  /** Embedded: the highest sampled PSS of the PostgreSQL processes the server started. */
  databaseMemory?: { sampledPeak: number };
  overlaps?: OverlapCounts;
  /** The outbox job: sending to an SMTP server, and the cost of a claim with a backlog (PostgreSQL server only). */
  outbox?: OutboxBench;
  /** Pushes through the outbox to a push service on this machine (PostgreSQL server only). */
  push?: PushBench;
}

export interface BenchReport {
  date: Date;
  quick: boolean;
  machine: { cpus: number; model: string; memoryBytes: number; node: string; postgres?: string; os: string; commit?: string };
  parameters: {
    connections: number;
    fixedRateSeconds: number;
    statementRepeats: number;
    hotDesks: number;
    searchWindow: { start: string; end: string };
    department: { location: string; building: string; floor: number };
  };
  serverSettings: string;
  runs: DatabaseRun[];
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

const integer = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–');
const ms = (value: number) => (Number.isFinite(value) ? (value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')) : '–');
const ratio = (value: number) => (Number.isFinite(value) ? value.toFixed(value < 1 ? 3 : 2) : '–');
const megabytes = (bytes: number | undefined) => (bytes === undefined ? 'unknown' : `${integer(bytes / MB)} MB`);
const mark = (met: boolean) => (met ? '✓' : '✗');

function table(header: string[], align: ('l' | 'r' | 'c')[], rows: string[][]): string {
  const rule = align.map((a) => (a === 'r' ? '---:' : a === 'c' ? ':---:' : '---'));
  return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

const scenarioOf = (id: ScenarioId) => SCENARIOS.find((scenario) => scenario.id === id)!;
const titleOf = (id: ScenarioId) => scenarioOf(id).title;

/** The statuses of the write scenarios, where 200s and 409s are what is being measured. */
function statusNote(id: ScenarioId, summary: Summary): string {
  if (id !== 'book' && id !== 'book-hot') return '';
  return Object.keys(summary.statuses)
    .map(Number)
    .sort((a, b) => a - b)
    .map((code) => `${code}: ${integer(summary.statuses[code]!)} (${integer(summary.statusPerSecond[code]!)}/s)`)
    .join(', ');
}

/**
 * "2", or "2–3" when the repeats differ, with "(first 6)" when the scenario's first request
 * differed; the statuses when a counted request was not an expected answer.
 */
export function statementCell(id: ScenarioId, count: StatementCount | undefined): string {
  if (!count) return '–';
  let value = count.min === count.max ? String(count.median) : `${count.min}–${count.max}`;
  if (count.first < count.min || count.first > count.max) value += ` (first ${count.first})`;
  const unexpected = count.statuses.filter((status) => !scenarioOf(id).expected.includes(status));
  return unexpected.length > 0 ? `${value} (answered ${[...new Set(unexpected)].join(', ')})` : value;
}

function saturationRows(run: DatabaseRun, separate: boolean): string[][] {
  const r1 = run.saturation.get('r1')?.perSecond ?? Number.NaN;
  return SCENARIOS.filter((scenario) => Boolean(scenario.separate) === separate && run.saturation.has(scenario.id)).map((scenario) => {
    const summary = run.saturation.get(scenario.id)!;
    return [
      scenario.title,
      integer(summary.perSecond),
      ms(summary.p50),
      ms(summary.p99),
      integer(summary.errors),
      ratio(summary.perSecond / r1),
      statementCell(scenario.id, run.statements.get(scenario.id)),
      statusNote(scenario.id, summary),
    ];
  });
}

/** The cost of one request log line, from GET /api/self with REQUEST_LOG true (the main run) and false. */
export function requestLogLine(run: DatabaseRun): string | undefined {
  const on = run.saturation.get('self');
  const off = run.requestLogOff;
  if (!on || !off || on.perSecond <= 0 || off.perSecond <= 0) return undefined;
  const microseconds = (1 / on.perSecond - 1 / off.perSecond) * 1e6;
  const share = (off.perSecond - on.perSecond) / off.perSecond;
  return (
    `Request logging: GET /api/self answers ${integer(on.perSecond)} req/s with REQUEST_LOG=true and ${integer(off.perSecond)} req/s with REQUEST_LOG=false ` +
    `(a second server, same rounds): the log line costs ${(share * 100).toFixed(1)} % of the rate, ≈ ${Math.round(microseconds)} µs of the server's time per request.`
  );
}

export function checkTargets(run: DatabaseRun): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const r1 = run.saturation.get('r1')?.perSecond ?? Number.NaN;
  for (const scenario of SCENARIOS) {
    const summary = run.saturation.get(scenario.id);
    if (scenario.targetRatio === undefined || !summary) continue;
    const value = summary.perSecond / r1;
    checks.push({ target: `${scenario.title}: ≥ ${scenario.targetRatio} × R1`, measured: `${ratio(value)} × R1`, met: value >= scenario.targetRatio });
  }
  for (const scenario of SCENARIOS) {
    const count = run.statements.get(scenario.id);
    if (scenario.maxStatements === undefined || !count) continue;
    const answered = count.statuses.every((status) => scenario.expected.includes(status));
    checks.push({
      target: `${scenario.title}: ≤ ${scenario.maxStatements} statements per request`,
      measured: statementCell(scenario.id, count),
      met: answered && count.max <= scenario.maxStatements,
    });
  }
  for (const [id, summary] of run.fixedRate) {
    const rate = scenarioOf(id).fixedRate!;
    const p99Ms = scenarioOf(id).fixedRateP99Ms ?? TARGETS.fixedRateP99Ms;
    checks.push({
      target: `${titleOf(id)}: p99 ≤ ${p99Ms} ms at ${rate} req/s in every round`,
      measured: `${ms(summary.worstP99)} ms (worst round)`,
      met: summary.worstP99 <= p99Ms && summary.errors === 0,
    });
  }
  const book = run.saturation.get('book');
  if (book) {
    const created = book.statusPerSecond[200] ?? 0;
    checks.push({
      target: `write path: ≥ ${TARGETS.bookingsPerSecond} reservations/s`,
      measured: `${integer(created)}/s`,
      met: created >= TARGETS.bookingsPerSecond,
    });
  }
  const hot = run.saturation.get('book-hot');
  if (book || hot) {
    const serverErrors = (book?.serverErrors ?? 0) + (hot?.serverErrors ?? 0);
    checks.push({ target: 'write path: no 5xx', measured: integer(serverErrors), met: serverErrors === 0 });
  }
  if (run.overlaps) {
    const overlaps = run.overlaps.deskOverlaps + run.overlaps.userOverlaps;
    checks.push({ target: 'write path: no overlapping reservations', measured: integer(overlaps), met: overlaps === 0 });
  }
  if (run.memory) {
    const peak = run.memory.highWaterMark ?? run.memory.sampledPeak;
    checks.push({ target: `server RSS ≤ ${megabytes(TARGETS.rssBytes)} under load`, measured: megabytes(peak), met: peak <= TARGETS.rssBytes });
  }
  return checks;
}

/** One database's results as Markdown. `targets`: with the targets table (the PostgreSQL server; for the embedded one only when it ran alone). */
export function runMarkdown(run: DatabaseRun, targets: boolean): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', '× R1', 'statements', 'statuses'];
  const align: ('l' | 'r')[] = ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'];
  const parts = [table(header, align, saturationRows(run, false))];

  const separate = saturationRows(run, true);
  if (separate.length > 0)
    parts.push(
      `Sign-in, measured apart (its cost is the argon2id password hash, by design):\n\n${table(
        header.slice(0, 7),
        align.slice(0, 7),
        separate.map((row) => row.slice(0, 7)),
      )}`,
    );

  if (run.fixedRate.size > 0) {
    const rows = [...run.fixedRate].map(([id, summary]) => [
      titleOf(id),
      integer(scenarioOf(id).fixedRate!),
      ms(summary.p50),
      ms(summary.p99),
      ms(summary.worstP99),
      integer(summary.errors),
      mark(summary.worstP99 <= TARGETS.fixedRateP99Ms && summary.errors === 0),
    ]);
    parts.push(
      `Latency at a fixed rate below saturation (target p99 ≤ ${TARGETS.fixedRateP99Ms} ms in every round):\n\n${table(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'worst p99 ms', 'errors', 'p99 target'], ['l', 'r', 'r', 'r', 'r', 'r', 'c'], rows)}`,
    );
  }

  const facts: string[] = [];
  const logLine = requestLogLine(run);
  if (logLine) facts.push(logLine);
  if (run.memory) facts.push(`Server peak RSS: ${megabytes(run.memory.highWaterMark)} (VmHWM); highest sampled VmRSS ${megabytes(run.memory.sampledPeak)}.`);
  if (run.databaseMemory) facts.push(`Embedded PostgreSQL (all its processes, PSS): highest sampled ${megabytes(run.databaseMemory.sampledPeak)}.`);
  if (run.overlaps) {
    facts.push(
      `Reservations the write scenarios created (warm-ups included): ${integer(run.overlaps.reservations)}; overlapping pairs among them: ${integer(run.overlaps.deskOverlaps)} of one desk, ${integer(run.overlaps.userOverlaps)} of one user.`,
    );
  }
  if (facts.length > 0) parts.push(facts.join('\n'));
  if (run.outbox) parts.push(outboxMarkdown(run.outbox));
  if (run.push) parts.push(pushMarkdown(run.push));

  const checks = targets ? checkTargets(run) : [];
  if (checks.length > 0)
    parts.push(
      `Targets:\n\n${table(
        ['target', 'measured', 'met'],
        ['l', 'r', 'c'],
        checks.map((check) => [check.target, check.measured, mark(check.met)]),
      )}`,
    );
  return parts.join('\n\n');
}

const runHeading = (run: DatabaseRun) => `### ${run.label}`;

/** The results as Markdown: what `npm run bench` prints and writes into docs/benchmarks.md. */
export function resultsMarkdown(report: BenchReport): string {
  const postgresRan = report.runs.some((run) => run.kind === 'postgres');
  return report.runs.map((run) => `${runHeading(run)}\n\n${runMarkdown(run, run.kind === 'postgres' || !postgresRan)}`).join('\n\n');
}

/** The generated section of docs/benchmarks.md: the results with when, where and how they were measured. */
export function documentSection(report: BenchReport): string {
  const { machine, parameters } = report;
  const datasets = report.runs.map(
    (run) =>
      `- Dataset, ${run.label}: ${Object.entries(run.dataset)
        .map(([name, count]) => `${name} ${integer(count)}`)
        .join(', ')}`,
  );
  const loads = report.runs.map(
    (run) =>
      `- Load (${run.kind === 'postgres' ? 'PostgreSQL server' : 'embedded PostgreSQL'}): ${run.warmupSeconds} s warm-up (first round only) then ${run.seconds} s measured per scenario, ${run.rounds} round${run.rounds === 1 ? '' : 's'}`,
  );
  return [
    `## Results of ${report.date.toISOString().slice(0, 10)}${report.quick ? ' (quick run: short and single-round, indicative only)' : ''}`,
    '',
    `- Date: ${report.date.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    `- Machine: ${machine.cpus} × ${machine.model}, ${megabytes(machine.memoryBytes)} memory, ${machine.os}; server, reference server, database and load generator share it`,
    `- Node ${machine.node}${machine.postgres ? `; ${machine.postgres}` : ''}${machine.commit ? `; Deskbook at commit ${machine.commit}` : ''}`,
    ...datasets,
    `- autocannon, ${parameters.connections} connections; scenarios alternate within each round; req/s = responses ÷ seconds of the run; req/s, p50 and p99 are medians of the rounds, errors and statuses totals. Fixed-rate runs: ${parameters.fixedRateSeconds} s per round, requests started evenly spaced (open loop, up to ${parameters.connections} connections), latency counted from when each request was due`,
    ...loads,
    `- Statements: SQL statements per request, counted in process (docs/benchmarks.md, Statements per request) over ${parameters.statementRepeats} requests of each scenario after its first (one number: every request the same; a range: they differed; "first": the first request's count where it differed)`,
    `- Searches look for desks free ${parameters.searchWindow.start} – ${parameters.searchWindow.end} (09:00–17:00 UTC of the next workday); the one-department search names ${parameters.department.location}, ${parameters.department.building}, floor ${parameters.department.floor}`,
    `- Server under test: \`MALLOC_ARENA_MAX=2 node --max-old-space-size=192 --max-semi-space-size=16 dist/server.js\` (as \`npm start\`), ${report.serverSettings}`,
    `- Write path: admin books for random seeded users two years ahead (free desks: a shuffled desk list, never colliding) and three years ahead (${parameters.hotDesks} hot desks, random 1–3 h slots in a fresh week per run); all removed afterwards`,
    '',
    resultsMarkdown(report),
  ].join('\n');
}
