import type { DatasetCounts, OverlapCounts } from './database.js';
import type { Summary } from './measure.js';
import { SCENARIOS, type ScenarioId } from './scenarios.js';

export const MB = 1024 * 1024;

/** The targets; each full run lists them beside the results in docs/benchmarks.md. */
export const TARGETS = {
  ratioToR1: {
    self: 0.15,
    departments: 0.06,
    reservations: 0.06,
    'search-rooms': 0.01,
    'search-rooms-partly': 0.01,
    'search-departments': 0.01,
    'search-reports': 0.01,
    stats: 0.01,
  } as Partial<Record<ScenarioId, number>>,
  fixedRateP99Ms: 50,
  bookingsPerSecond: 500,
  rssBytes: 300 * MB,
};

export interface BenchReport {
  date: Date;
  quick: boolean;
  machine: { cpus: number; model: string; memoryBytes: number; node: string; postgres: string; os: string; commit?: string };
  database: string;
  dataset: DatasetCounts;
  parameters: {
    connections: number;
    warmupSeconds: number;
    seconds: number;
    rounds: number;
    fixedRateSeconds: number;
    hotDesks: number;
    searchWindow: { start: string; end: string };
  };
  serverSettings: string;
  saturation: Map<ScenarioId, Summary>;
  fixedRate: Map<ScenarioId, Summary>;
  memory?: { sampledPeak: number; highWaterMark: number | undefined };
  overlaps?: OverlapCounts;
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

const titleOf = (id: ScenarioId) => SCENARIOS.find((scenario) => scenario.id === id)!.title;

/** The statuses of the write scenarios, where 200s and 409s are what is being measured. */
function statusNote(id: ScenarioId, summary: Summary): string {
  if (id !== 'book' && id !== 'book-hot') return '';
  return Object.keys(summary.statuses)
    .map(Number)
    .sort((a, b) => a - b)
    .map((code) => `${code}: ${integer(summary.statuses[code]!)} (${integer(summary.statusPerSecond[code]!)}/s)`)
    .join(', ');
}

function saturationRows(report: BenchReport, separate: boolean): string[][] {
  const r1 = report.saturation.get('r1')?.perSecond ?? Number.NaN;
  return SCENARIOS.filter((scenario) => Boolean(scenario.separate) === separate && report.saturation.has(scenario.id)).map((scenario) => {
    const summary = report.saturation.get(scenario.id)!;
    return [
      scenario.title,
      integer(summary.perSecond),
      ms(summary.p50),
      ms(summary.p99),
      integer(summary.errors),
      ratio(summary.perSecond / r1),
      statusNote(scenario.id, summary),
    ];
  });
}

export function checkTargets(report: BenchReport): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const r1 = report.saturation.get('r1')?.perSecond ?? Number.NaN;
  for (const [id, minimum] of Object.entries(TARGETS.ratioToR1) as [ScenarioId, number][]) {
    const summary = report.saturation.get(id);
    if (!summary) continue;
    const value = summary.perSecond / r1;
    checks.push({ target: `${titleOf(id)}: ≥ ${minimum} × R1`, measured: `${ratio(value)} × R1`, met: value >= minimum });
  }
  for (const [id, summary] of report.fixedRate) {
    const rate = SCENARIOS.find((scenario) => scenario.id === id)!.fixedRate!;
    checks.push({
      target: `${titleOf(id)}: p99 ≤ ${TARGETS.fixedRateP99Ms} ms at ${rate} req/s`,
      measured: `${ms(summary.p99)} ms`,
      met: summary.p99 <= TARGETS.fixedRateP99Ms && summary.errors === 0,
    });
  }
  const book = report.saturation.get('book');
  if (book) {
    const created = book.statusPerSecond[200] ?? 0;
    checks.push({
      target: `write path: ≥ ${TARGETS.bookingsPerSecond} reservations/s`,
      measured: `${integer(created)}/s`,
      met: created >= TARGETS.bookingsPerSecond,
    });
  }
  const hot = report.saturation.get('book-hot');
  if (book || hot) {
    const serverErrors = (book?.serverErrors ?? 0) + (hot?.serverErrors ?? 0);
    checks.push({ target: 'write path: no 5xx', measured: integer(serverErrors), met: serverErrors === 0 });
  }
  if (report.overlaps) {
    const overlaps = report.overlaps.deskOverlaps + report.overlaps.userOverlaps;
    checks.push({ target: 'write path: no overlapping reservations', measured: integer(overlaps), met: overlaps === 0 });
  }
  if (report.memory) {
    const peak = report.memory.highWaterMark ?? report.memory.sampledPeak;
    checks.push({ target: `server RSS ≤ ${megabytes(TARGETS.rssBytes)} under load`, measured: megabytes(peak), met: peak <= TARGETS.rssBytes });
  }
  return checks;
}

/** The results as Markdown: what `npm run bench` prints and writes into docs/benchmarks.md. */
export function resultsMarkdown(report: BenchReport): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', '× R1', 'statuses'];
  const align: ('l' | 'r')[] = ['l', 'r', 'r', 'r', 'r', 'r', 'l'];
  const parts = [table(header, align, saturationRows(report, false))];

  const separate = saturationRows(report, true);
  if (separate.length > 0)
    parts.push(
      `Sign-in, measured apart (its cost is the argon2id password hash, by design):\n\n${table(
        header.slice(0, 6),
        align.slice(0, 6),
        separate.map((row) => row.slice(0, 6)),
      )}`,
    );

  if (report.fixedRate.size > 0) {
    const rows = [...report.fixedRate].map(([id, summary]) => {
      const rate = SCENARIOS.find((scenario) => scenario.id === id)!.fixedRate!;
      return [
        titleOf(id),
        integer(rate),
        ms(summary.p50),
        ms(summary.p99),
        integer(summary.errors),
        mark(summary.p99 <= TARGETS.fixedRateP99Ms && summary.errors === 0),
      ];
    });
    parts.push(
      `Latency at a fixed rate below saturation (target p99 ≤ ${TARGETS.fixedRateP99Ms} ms):\n\n${table(['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'p99 target'], ['l', 'r', 'r', 'r', 'r', 'c'], rows)}`,
    );
  }

  const facts: string[] = [];
  if (report.memory)
    facts.push(`Server peak RSS: ${megabytes(report.memory.highWaterMark)} (VmHWM); highest sampled VmRSS ${megabytes(report.memory.sampledPeak)}.`);
  if (report.overlaps) {
    facts.push(
      `Reservations the write scenarios created (warm-ups included): ${integer(report.overlaps.reservations)}; overlapping pairs among them: ${integer(report.overlaps.deskOverlaps)} of one desk, ${integer(report.overlaps.userOverlaps)} of one user.`,
    );
  }
  if (facts.length > 0) parts.push(facts.join('\n'));

  const checks = checkTargets(report);
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

/** The generated section of docs/benchmarks.md: the results with when, where and how they were measured. */
export function documentSection(report: BenchReport): string {
  const { machine, parameters, dataset } = report;
  const counts = Object.entries(dataset)
    .map(([table, count]) => `${table} ${integer(count)}`)
    .join(', ');
  return [
    `## Results of ${report.date.toISOString().slice(0, 10)}${report.quick ? ' (quick run: short and single-round, indicative only)' : ''}`,
    '',
    `- Date: ${report.date.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    `- Machine: ${machine.cpus} × ${machine.model}, ${megabytes(machine.memoryBytes)} memory, ${machine.os}; server, reference server, PostgreSQL and load generator share it`,
    `- Node ${machine.node}; ${machine.postgres}${machine.commit ? `; Deskbook at commit ${machine.commit}` : ''}`,
    `- Dataset (${report.database}): ${counts}`,
    `- Load: autocannon, ${parameters.connections} connections, ${parameters.warmupSeconds} s warm-up then ${parameters.seconds} s measured per scenario, ${parameters.rounds} round${parameters.rounds === 1 ? '' : 's'} (scenarios alternate within each round); req/s = responses ÷ seconds of the run; req/s, p50 and p99 are medians of the rounds, errors and statuses totals. Fixed-rate runs: ${parameters.fixedRateSeconds} s per round, requests started evenly spaced (open loop, up to ${parameters.connections} connections), latency counted from when each request was due`,
    `- Searches look for desks free ${parameters.searchWindow.start} – ${parameters.searchWindow.end} (09:00–17:00 UTC of the next workday)`,
    `- Server under test: \`MALLOC_ARENA_MAX=2 node --max-old-space-size=192 dist/server.js\` (as \`npm start\`), ${report.serverSettings}`,
    `- Write path: admin books for random seeded users two years ahead (free desks: a shuffled desk list, never colliding) and three years ahead (${parameters.hotDesks} hot desks, random 1–3 h slots in a fresh week per run); all removed afterwards`,
    '',
    resultsMarkdown(report),
  ].join('\n');
}
