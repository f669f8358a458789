/**
 * `npm run bench`: throughput and latency of the built server on PostgreSQL with the large
 * dataset, beside three routes of a bare Fastify process as the yardstick (targets: docs/benchmarks.md).
 * docs/benchmarks.md describes what it measures and holds the last full run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { projectPath } from '../src/shared/paths.js';
import {
  BENCH_USER_AGENT,
  BenchFailure,
  countOverlaps,
  openBenchDatabase,
  readDataset,
  removeBenchRows,
  type Dataset,
  type OverlapCounts,
} from './bench/database.js';
import { prepareAttendance, removeAttendanceRows, type AttendanceBench } from './bench/attendance.js';
import { CONNECTIONS, measure, summarize, type Measurement } from './bench/measure.js';
import { measureAtRate } from './bench/paced.js';
import { freePort, RssSampler, ServerProcess } from './bench/processes.js';
import { documentSection, resultsMarkdown, type BenchReport } from './bench/report.js';
import { Bookings, nextWorkdayWindow, SCENARIOS, type BenchContext, type Scenario, type ScenarioId } from './bench/scenarios.js';
import { SEED_ADMIN_EMAIL, SEED_PASSWORD } from './seed/seed.js';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/deskbook_large';
const TOKEN_USERS = 50;
const HOT_DESKS = 5;
const PAUSE_BETWEEN_RUNS_MS = 1000;
const DAY = 86_400_000;
const DOC_START = '<!-- bench:results:start -->';
const DOC_END = '<!-- bench:results:end -->';

const USAGE = `Usage: npm run bench -- [--duration <s>] [--warmup <s>] [--rounds <n>] [--only <scenario,...>] [--quick] [--write] [--skip-build]

Builds the server, starts it on the PostgreSQL database BENCH_DATABASE_URL (default
${DEFAULT_DATABASE_URL}; fill it with: npm run seed -- --profile large), starts a bare
Fastify reference server beside it, loads both with autocannon (${CONNECTIONS} connections) and prints
one table; a full run also writes it to docs/benchmarks.md. Takes 15 to 20 minutes with the defaults.

  --duration <s>    measured seconds per scenario and round, at saturation and at the fixed rate (default 10)
  --warmup <s>      seconds of load before each measured run, not counted (default 3)
  --rounds <n>      rounds; each runs every scenario once, in turn (default 3); medians are reported
  --only <list>     only these scenarios (R1 always runs: the ratios need it):
                    ${SCENARIOS.map((scenario) => scenario.id).join(', ')}
  --quick           2 s per scenario, 1 s warm-up, 1 round: for trying it out; writes no docs
  --write           write docs/benchmarks.md after a --quick or --only run too
  --skip-build      use dist/ as it is

BENCH_PASSWORD: the seeded accounts' password (default the seed's "${SEED_PASSWORD}").
Exit code 1 when the database is not seeded, a server fails, any request answers 5xx, or the
bookings overlap.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

function parseCommandLine() {
  let values;
  try {
    values = parseArgs({
      options: {
        duration: { type: 'string', default: '10' },
        warmup: { type: 'string', default: '3' },
        rounds: { type: 'string', default: '3' },
        only: { type: 'string' },
        quick: { type: 'boolean', default: false },
        write: { type: 'boolean', default: false },
        'skip-build': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const whole = (name: string, raw: string, min: number) => {
    if (!/^\d{1,5}$/.test(raw) || Number(raw) < min) fail(`--${name} must be a whole number ≥ ${min} (got "${raw}")`);
    return Number(raw);
  };
  let scenarios: readonly Scenario[] = SCENARIOS;
  if (values.only !== undefined) {
    const wanted = values.only
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const unknown = wanted.filter((id) => !SCENARIOS.some((scenario) => scenario.id === id));
    if (unknown.length > 0 || wanted.length === 0)
      fail(`--only: unknown scenario ${unknown.join(', ') || '(none given)'}; choose from ${SCENARIOS.map((s) => s.id).join(', ')}`);
    scenarios = SCENARIOS.filter((scenario) => scenario.id === 'r1' || wanted.includes(scenario.id));
  }
  const quick = values.quick;
  return {
    seconds: quick ? 2 : whole('duration', values.duration, 1),
    warmupSeconds: quick ? 1 : whole('warmup', values.warmup, 0),
    rounds: quick ? 1 : whole('rounds', values.rounds, 1),
    fixedRateSeconds: quick ? 2 : whole('duration', values.duration, 1),
    scenarios,
    quick,
    writeDocs: values.write || (!quick && values.only === undefined),
    build: !values['skip-build'],
  };
}

function build(): void {
  progress('Building the server (npm run build) …');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: projectPath(), stdio: 'inherit' });
  if (result.status !== 0) fail('npm run build failed; the bench measures the built server (dist/server.js).');
}

/** The environment of the server under test: its defaults (production log settings) with two exceptions, named in the report. */
function serverEnvironment(databaseUrl: string, port: number): { env: NodeJS.ProcessEnv; description: string } {
  const settings = {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    REQUEST_LOG: 'true',
    // Every sign-in comes from the bench's one address; the default of 100 a minute would answer 429.
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000',
    // The statistics scenario sends all its 50 connections with the one admin's token; the per-user
    // limit on costly requests (default 3 at once) would answer most of them 429.
    EXPENSIVE_CONCURRENCY_PER_USER: '1000',
  };
  return {
    // Nothing inherited but the basics, so no setting of the caller's shell changes what is measured;
    // the allocator setting is that of `npm start`.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', MALLOC_ARENA_MAX: '2', ...settings },
    description:
      'default settings (LOG_LEVEL info, REQUEST_LOG true: one log line per request, written to a file; DATABASE_POOL_SIZE 10) except LOGIN_MAX_ATTEMPTS_PER_ADDRESS=1000000, since every sign-in comes from one address, and EXPENSIVE_CONCURRENCY_PER_USER=1000, since the statistics scenario uses one admin on all connections',
  };
}

/**
 * Pending migrations are applied before the server starts: on a large database an index migration
 * can outlast the server's start-up timeout, and start-up is not what is measured.
 */
async function applyMigrations(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 1, statementTimeoutMs: 3_600_000 });
  try {
    progress('Applying pending migrations …');
    const applied = await migrate(database.db);
    if (applied > 0) progress(`Applied ${applied} migration${applied === 1 ? '' : 's'}.`);
  } finally {
    await database.close();
  }
}

async function signIn(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BENCH_USER_AGENT },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) {
    throw new BenchFailure(
      `Signing in as ${email} answered ${response.status}: ${await response.text()}. Set BENCH_PASSWORD if the seed used another password.`,
    );
  }
  return ((await response.json()) as { accessToken: string }).accessToken;
}

/** Fresh tokens for the round: access tokens live 15 minutes. */
async function signInAll(context: BenchContext, dataset: Dataset): Promise<void> {
  const step = Math.max(1, Math.floor(dataset.users.length / TOKEN_USERS));
  const people = Array.from({ length: Math.min(TOKEN_USERS, dataset.users.length) }, (_, i) => dataset.users[i * step]!);
  context.adminToken = await signIn(context.appUrl, SEED_ADMIN_EMAIL, context.password);
  const tokens: string[] = [];
  for (let i = 0; i < people.length; i += 10) {
    tokens.push(...(await Promise.all(people.slice(i, i + 10).map((person) => signIn(context.appUrl, person.email, context.password)))));
  }
  context.userTokens = tokens;
}

function machine(postgres: string): BenchReport['machine'] {
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: projectPath(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    commit = undefined;
  }
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    model: cpus[0]?.model.trim() ?? 'unknown CPU',
    memoryBytes: os.totalmem(),
    node: process.version,
    postgres: postgres.split(' on ')[0] ?? postgres,
    os: `${os.type()} ${os.release()}`,
    commit,
  };
}

function writeDocument(section: string): string {
  const file = projectPath('docs', 'benchmarks.md');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Benchmarks\n\n${DOC_START}\n${DOC_END}\n`;
  const from = current.indexOf(DOC_START);
  const to = current.indexOf(DOC_END);
  if (from < 0 || to < from) throw new BenchFailure(`${file} lacks the markers ${DOC_START} … ${DOC_END}; the results were printed above.`);
  writeFileSync(file, `${current.slice(0, from + DOC_START.length)}\n${section}\n${current.slice(to)}`);
  return file;
}

async function main(): Promise<number> {
  const options = parseCommandLine();
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const sql = openBenchDatabase(databaseUrl);
  const servers: ServerProcess[] = [];
  const today = new Date(Math.floor(Date.now() / DAY) * DAY);
  // The seed books up to six months ahead: everything from a year ahead on is the bench's.
  const benchRowsFrom = new Date(today.getTime() + 365 * DAY);
  let exitCode = 0;
  let attendanceBench: AttendanceBench | undefined;

  const stopEverything = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await removeBenchRows(sql, benchRowsFrom).catch(() => {});
    await removeAttendanceRows(sql, attendanceBench).catch(() => {});
  };
  process.once('SIGINT', () => {
    progress('Interrupted: stopping the servers and removing the bench rows …');
    void stopEverything().finally(() => process.exit(130));
  });

  try {
    const dataset = await readDataset(sql, databaseUrl);
    await applyMigrations(databaseUrl);
    if (options.build) build();
    if (!existsSync(projectPath('dist', 'server.js'))) fail('dist/server.js is missing: run without --skip-build.');
    await removeBenchRows(sql, benchRowsFrom);

    const logDirectory = mkdtempSync(path.join(os.tmpdir(), 'deskbook-bench-'));
    const appPort = await freePort();
    const serverSettings = serverEnvironment(databaseUrl, appPort);
    progress(`Starting the server and the reference server (logs in ${logDirectory}) …`);
    const app = await ServerProcess.start({
      name: 'server',
      // The heap cap of `npm start` (package.json): the server runs as it does in production.
      args: ['--max-old-space-size=192', projectPath('dist', 'server.js')],
      env: serverSettings.env,
      port: appPort,
      readyPath: '/api/health',
      logFile: path.join(logDirectory, 'server.log'),
    });
    servers.push(app);
    const referencePort = await freePort();
    const reference = await ServerProcess.start({
      name: 'reference server',
      args: ['--import', 'tsx', projectPath('scripts', 'bench', 'reference-server.ts')],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATABASE_URL: databaseUrl, PORT: String(referencePort) },
      port: referencePort,
      readyPath: '/r1',
      logFile: path.join(logDirectory, 'reference-server.log'),
    });
    servers.push(reference);

    const context: BenchContext = {
      appUrl: app.baseUrl,
      referenceUrl: reference.baseUrl,
      userTokens: [],
      adminToken: '',
      users: dataset.users,
      password: process.env.BENCH_PASSWORD ?? SEED_PASSWORD,
      searchWindow: nextWorkdayWindow(new Date()),
      bookings: new Bookings(
        dataset.bookableDeskIds,
        dataset.users,
        new Date(today.getTime() + 2 * 365 * DAY),
        new Date(today.getTime() + 3 * 365 * DAY),
        HOT_DESKS,
      ),
    };

    if (options.scenarios.some((scenario) => scenario.id === 'check-in' || scenario.id === 'attendance')) {
      attendanceBench = await prepareAttendance(
        sql,
        dataset.users.map((user) => user.id),
        dataset.bookableDeskIds,
        10_000,
      );
      context.attendance = attendanceBench;
    }

    const saturationRuns = new Map<ScenarioId, Measurement[]>();
    const fixedRateRuns = new Map<ScenarioId, Measurement[]>();
    const record = (runs: Map<ScenarioId, Measurement[]>, id: ScenarioId, run: Measurement) => runs.set(id, [...(runs.get(id) ?? []), run]);
    const rss = new RssSampler(app);
    let warmupServerErrors = 0;

    const afterRun = async (scenario: Scenario, result: Measurement) => {
      for (const server of servers) if (!server.running) throw new Error(`the ${server.name} exited during "${scenario.title}"; see ${server.logFile}`);
      await sleep(PAUSE_BETWEEN_RUNS_MS);
      return result;
    };
    const urlOf = (scenario: Scenario) => (scenario.server === 'reference' ? context.referenceUrl : context.appUrl);
    const saturate = async (scenario: Scenario, seconds: number) =>
      afterRun(scenario, await measure({ url: urlOf(scenario), load: scenario.load(context), seconds, expected: scenario.expected }));
    const pace = async (scenario: Scenario, rate: number) =>
      afterRun(
        scenario,
        await measureAtRate({ url: urlOf(scenario), load: scenario.load(context), rate, seconds: options.fixedRateSeconds, expected: scenario.expected }),
      );

    for (let round = 1; round <= options.rounds; round++) {
      await signInAll(context, dataset);
      for (const scenario of options.scenarios) {
        if (options.warmupSeconds > 0) warmupServerErrors += (await saturate(scenario, options.warmupSeconds)).serverErrors;
        const result = await saturate(scenario, options.seconds);
        record(saturationRuns, scenario.id, result);
        progress(
          `round ${round}/${options.rounds}  ${scenario.title.padEnd(54)} ${Math.round(result.perSecond).toLocaleString('en-US').padStart(7)} req/s` +
            `  p50 ${result.p50} ms  p99 ${result.p99} ms  errors ${result.errors}  statuses ${JSON.stringify(result.statuses)}`,
        );
      }
      for (const scenario of options.scenarios.filter((s) => s.fixedRate !== undefined)) {
        const result = await pace(scenario, scenario.fixedRate!);
        record(fixedRateRuns, scenario.id, result);
        progress(
          `round ${round}/${options.rounds}  ${scenario.title.padEnd(54)} at ${scenario.fixedRate} req/s: p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  errors ${result.errors}`,
        );
      }
    }

    const memory = rss.finish();
    let overlaps: OverlapCounts | undefined;
    if (options.scenarios.some((scenario) => scenario.id === 'book' || scenario.id === 'book-hot')) overlaps = await countOverlaps(sql, benchRowsFrom);

    const summaries = (runs: Map<ScenarioId, Measurement[]>) => new Map([...runs].map(([id, measurements]) => [id, summarize(measurements)] as const));
    const report: BenchReport = {
      date: new Date(),
      quick: options.quick,
      machine: machine(dataset.postgresVersion),
      database: new URL(databaseUrl).pathname.slice(1),
      dataset: dataset.counts,
      parameters: {
        connections: CONNECTIONS,
        warmupSeconds: options.warmupSeconds,
        seconds: options.seconds,
        rounds: options.rounds,
        fixedRateSeconds: options.fixedRateSeconds,
        hotDesks: HOT_DESKS,
        searchWindow: context.searchWindow,
      },
      serverSettings: serverSettings.description,
      saturation: summaries(saturationRuns),
      fixedRate: summaries(fixedRateRuns),
      memory,
      overlaps,
    };

    process.stdout.write(`\n${resultsMarkdown(report)}\n`);
    if (options.writeDocs) progress(`\nWrote ${writeDocument(documentSection(report))}`);

    const measuredServerErrors = [...report.saturation.values(), ...report.fixedRate.values()].reduce((sum, summary) => sum + summary.serverErrors, 0);
    if (measuredServerErrors + warmupServerErrors > 0) {
      progress(`FAILED: ${measuredServerErrors} measured and ${warmupServerErrors} warm-up responses were 5xx; see ${app.logFile}`);
      exitCode = 1;
    }
    if (overlaps && overlaps.deskOverlaps + overlaps.userOverlaps > 0) {
      progress('FAILED: some of the reservations the bench created overlap');
      exitCode = 1;
    }
  } catch (error) {
    if (!(error instanceof BenchFailure)) throw error;
    progress(error.message);
    exitCode = 1;
  } finally {
    await stopEverything();
    await sql.end({ timeout: 5 });
  }
  return exitCode;
}

process.exitCode = await main();
