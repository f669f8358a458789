/**
 * `npm run bench`: throughput, latency and statements per request of the built server on
 * PostgreSQL with the large dataset, beside three routes of a bare Fastify process as the
 * yardstick, then the same scenarios on the embedded PostgreSQL (the default set-up) seeded with
 * the same profile.
 * docs/benchmarks.md describes what it measures (and the targets) and holds the last full run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseHandle, type QueryListener } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { EMBEDDED_DATABASE } from '../src/db/open-configured.js';
import { migrate } from '../src/db/migrate.js';
import { projectPath } from '../src/shared/paths.js';
import { addBigRoom, BENCH_USER_AGENT, BenchFailure, countOverlaps, readDataset, removeBenchRows, type Dataset, type OverlapCounts } from './bench/database.js';
import { CONNECTIONS, measure, summarize, type Measurement, type Summary } from './bench/measure.js';
import { measureAtRate } from './bench/paced.js';
import { freePort, RssSampler, serverArguments, ServerProcess } from './bench/processes.js';
import { benchFloorPlan, removeBenchFloorPlan } from './bench/floor-plan.js';
import { benchOutbox, OUTBOX_SIZES, type OutboxBench } from './bench/outbox.js';
import { benchPush, PUSH_SIZES, type PushBench } from './bench/push.js';
import { documentSection, resultsMarkdown, type BenchReport, type DatabaseRun } from './bench/report.js';
import { Bookings, nextWorkdayWindow, SCENARIOS, type BenchContext, type Scenario, type ScenarioId } from './bench/scenarios.js';
import { countStatements } from './bench/statements.js';
import { BENCH_PRIVACY } from './bench/people.js';
import { WireCounter } from './bench/wire-counter.js';
import { PROFILES, SEED_ADMIN_EMAIL, SEED_PASSWORD, seed } from './seed/seed.js';

/** The name of the outbox measurement in --only (it is no request scenario). */
const OUTBOX_ID = 'outbox';
/** The name of the push measurement in --only (scripts/bench/push.ts; no request scenario either). */
const PUSH_ID = 'push';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/deskbook_large';
const HOT_DESKS = 5;
const DAY = 86_400_000;
const DOC_START = '<!-- bench:results:start -->';
const DOC_END = '<!-- bench:results:end -->';
/** Requests of each scenario whose statements are counted. */
const STATEMENT_REPEATS = 5;

const USAGE = `Usage: npm run bench -- [--duration <s>] [--warmup <s>] [--rounds <n>] [--only <scenario,...>]
                         [--database both|postgres|embedded] [--embedded-profile small|large] [--quick] [--write] [--skip-build] [--source]

Builds the server and starts it on the PostgreSQL database BENCH_DATABASE_URL (default
${DEFAULT_DATABASE_URL}; fill it with: npm run seed -- --profile large), beside a bare Fastify
reference server; loads both with autocannon (${CONNECTIONS} connections). Then seeds a fresh embedded PostgreSQL (a new
DATA_DIR, as \`npm start\` without DATABASE_URL runs) and runs the same scenarios on it. Before each, every scenario's
request is sent ${STATEMENT_REPEATS} times to the service in this process to count its SQL statements. Prints
the tables; a full run also writes them to docs/benchmarks.md. Takes about 10 minutes with the defaults.

  --duration <s>    measured seconds per scenario and round, at saturation and at the fixed rate (default 5;
                    tenths from 0.5 allowed)
  --warmup <s>      seconds of load before each scenario's first measured run, not counted (default 2)
  --rounds <n>      rounds on each database; each runs every scenario once, in turn (default 3); medians
                    are reported.
  --only <list>     only these scenarios (R1 always runs: the ratios need it):
                    ${SCENARIOS.map((scenario) => scenario.id).join(', ')},
                    ${OUTBOX_ID} (the outbox job, not a request: PostgreSQL server only),
                    ${PUSH_ID} (pushes through the outbox to a local push service: PostgreSQL server only)
  --database <db>   both (default), postgres (BENCH_DATABASE_URL only) or embedded (the embedded
                    PostgreSQL only; needs no server: R2 and R3 are left out)
  --embedded-profile <p>  what the bench seeds into the embedded PostgreSQL: large (default, as the
                    server's database) or small (quicker)
  --quick           2 s per scenario, 1 s warm-up, 1 round, 10 signed-in users (--duration and --warmup
                    still apply): for trying it out; writes no docs
  --write           write docs/benchmarks.md after a --quick, --only or one-database run too
  --skip-build      use dist/ as it is
  --source          run the server from src/ with tsx (no build; for smoke runs and tests)

BENCH_PASSWORD: the seeded accounts' password (default the seed's "${SEED_PASSWORD}").
Exit code 1 when the database is not seeded, a server fails, any request answers 5xx, or the
bookings overlap.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

interface Options {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  fixedRateSeconds: number;
  scenarios: readonly Scenario[];
  /** Whether the outbox measurement runs (scripts/bench/outbox.ts). */
  outbox: boolean;
  /** Whether the push measurement runs (scripts/bench/push.ts). */
  push: boolean;
  quick: boolean;
  writeDocs: boolean;
  build: boolean;
  source: boolean;
  postgres: boolean;
  embedded: boolean;
  embeddedProfile: 'small' | 'large';
  tokenUsers: number;
  pauseMs: number;
}

function parseCommandLine(): Options {
  let values;
  try {
    values = parseArgs({
      options: {
        duration: { type: 'string' },
        warmup: { type: 'string' },
        rounds: { type: 'string' },
        only: { type: 'string' },
        database: { type: 'string', default: 'both' },
        'embedded-profile': { type: 'string' },
        quick: { type: 'boolean', default: false },
        write: { type: 'boolean', default: false },
        'skip-build': { type: 'boolean', default: false },
        source: { type: 'boolean', default: false },
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
  const whole = (name: string, raw: string | undefined, fallback: number, min: number) => {
    if (raw === undefined) return fallback;
    if (!/^\d{1,5}$/.test(raw) || Number(raw) < min) fail(`--${name} must be a whole number ≥ ${min} (got "${raw}")`);
    return Number(raw);
  };
  let scenarios: readonly Scenario[] = SCENARIOS;
  if (values.only !== undefined) {
    const wanted = values.only
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    const unknown = wanted.filter((id) => id !== OUTBOX_ID && id !== PUSH_ID && !SCENARIOS.some((scenario) => scenario.id === id));
    if (unknown.length > 0 || wanted.length === 0)
      fail(`--only: unknown scenario ${unknown.join(', ') || '(none given)'}; choose from ${SCENARIOS.map((s) => s.id).join(', ')}`);
    scenarios = SCENARIOS.filter((scenario) => scenario.id === 'r1' || wanted.includes(scenario.id));
  }
  if (!['both', 'postgres', 'embedded'].includes(values.database)) fail(`--database must be both, postgres or embedded (got "${values.database}")`);
  const embeddedProfile = values['embedded-profile'] ?? (values.quick ? 'small' : 'large');
  if (embeddedProfile !== 'small' && embeddedProfile !== 'large') fail(`--embedded-profile must be small or large (got "${embeddedProfile}")`);
  const quick = values.quick;
  // Tenths allowed (the test suite's quick run measures each scenario for half a second).
  const seconds =
    values.duration !== undefined && /^\d{1,5}\.\d$/.test(values.duration) && Number(values.duration) >= 0.5
      ? Number(values.duration)
      : whole('duration', values.duration, quick ? 2 : 5, 1);
  return {
    seconds,
    warmupSeconds: whole('warmup', values.warmup, quick ? 1 : 2, 0),
    rounds: quick ? 1 : whole('rounds', values.rounds, 3, 1),
    fixedRateSeconds: seconds,
    scenarios,
    outbox: values.only === undefined || values.only.split(',').some((id) => id.trim() === OUTBOX_ID),
    push: values.only === undefined || values.only.split(',').some((id) => id.trim() === PUSH_ID),
    quick,
    writeDocs: values.write || (!quick && values.only === undefined && values.database === 'both'),
    build: !values['skip-build'] && !values.source,
    source: values.source,
    postgres: values.database !== 'embedded',
    embedded: values.database !== 'postgres',
    embeddedProfile,
    tokenUsers: quick ? 10 : 50,
    pauseMs: quick ? 250 : 200,
  };
}

function build(): void {
  progress('Building the server (npm run build) …');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: projectPath(), stdio: 'inherit' });
  if (result.status !== 0) fail('npm run build failed; the bench measures the built server (dist/server.js).');
}

/** The database the server under test uses: PostgreSQL by URL, or the embedded one in a directory. */
type Target = { kind: 'postgres'; url: string } | { kind: 'embedded'; dataDir: string };

/** The environment of the server under test: its defaults (production log settings) with two exceptions, named in the report. */
function serverEnvironment(target: Target, port: number, requestLog = true): NodeJS.ProcessEnv {
  return {
    // Nothing inherited but the basics, so no setting of the caller's shell changes what is measured;
    // the allocator setting is that of `npm start`.
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    MALLOC_ARENA_MAX: '2',
    ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : { DATA_DIR: target.dataDir }),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    REQUEST_LOG: String(requestLog),
    // Every sign-in comes from the bench's one address; the default of 100 a minute would answer 429.
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000000',
    // The statistics scenario sends all its 50 connections with the one admin's token; the per-user
    // limit on costly requests (default 3 at once) would answer most of them 429.
    EXPENSIVE_CONCURRENCY_PER_USER: '1000',
    // The series scenario books series for seeded users in turn, many per person over a run; the
    // cap on one person's series with occurrences to come (default 20) would answer 409.
    SERIES_PER_USER: '10000',
  };
}

const SERVER_SETTINGS =
  'default settings (LOG_LEVEL info, REQUEST_LOG true: one log line per request, written to a file; DATABASE_POOL_SIZE 10) except LOGIN_MAX_ATTEMPTS_PER_ADDRESS=1000000, since every sign-in comes from one address, EXPENSIVE_CONCURRENCY_PER_USER=1000, since the statistics scenario uses one admin on all connections, and SERIES_PER_USER=10000, since the series scenario books many series per seeded user';

function startServer(options: Options, name: string, target: Target, logDirectory: string, requestLog = true): Promise<ServerProcess> {
  return freePort().then((port) =>
    ServerProcess.start({
      name,
      // The heap cap of `npm start` (package.json): the server runs as it does in production.
      args: serverArguments(options.source),
      env: serverEnvironment(target, port, requestLog),
      port,
      readyPath: '/api/health',
      logFile: path.join(logDirectory, `${name.replaceAll(' ', '-')}.log`),
    }),
  );
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

/** The organisation's settings the bench measures under (BENCH_PRIVACY), set before each round (idempotent). */
async function measuredPrivacy(context: BenchContext): Promise<void> {
  const response = await fetch(`${context.appUrl}/api/organisation/settings`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'user-agent': BENCH_USER_AGENT, authorization: `Bearer ${context.adminToken}` },
    body: JSON.stringify(BENCH_PRIVACY),
  });
  if (!response.ok) throw new BenchFailure(`Setting the organisation's privacy settings answered ${response.status}: ${await response.text()}`);
}

/** Fresh tokens for the round (access tokens live 15 minutes): the admin's and `count` users' spread over the seeded ones. */
async function signInAll(context: BenchContext, dataset: Dataset, count: number): Promise<void> {
  const step = Math.max(1, Math.floor(dataset.users.length / count));
  const people = Array.from({ length: Math.min(count, dataset.users.length) }, (_, i) => dataset.users[i * step]!);
  context.adminToken = await signIn(context.appUrl, SEED_ADMIN_EMAIL, context.password);
  await measuredPrivacy(context);
  const tokens: string[] = [];
  for (let i = 0; i < people.length; i += 10) {
    tokens.push(...(await Promise.all(people.slice(i, i + 10).map((person) => signIn(context.appUrl, person.email, context.password)))));
  }
  context.userTokens = tokens;
}

function machine(postgres: string | undefined): BenchReport['machine'] {
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
    postgres: postgres?.split(' on ')[0],
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

/** Everything both databases' runs share. */
interface Shared {
  options: Options;
  reference: ServerProcess;
  logDirectory: string;
  searchWindow: { start: string; end: string };
  today: Date;
  /** The bench books only from here on (the seed books up to six months ahead). */
  benchRowsFrom: Date;
  /** Stops what a run started, if it is interrupted. */
  cleanups: (() => Promise<void>)[];
  serverErrors: number;
}

/** One database's bookings: the statement count and the server's rounds take their slots from the same sequence. */
function bookingsFor(shared: Shared, dataset: Dataset): Bookings {
  const { today } = shared;
  return new Bookings(dataset.bookableDeskIds, dataset.users, new Date(today.getTime() + 2 * 365 * DAY), new Date(today.getTime() + 3 * 365 * DAY), HOT_DESKS);
}

function contextFor(
  shared: Shared,
  dataset: Dataset,
  bigRoom: BenchContext['bigRoom'],
  bookings: Bookings,
  appUrl: string,
  floorPlanDepartmentId: string,
): BenchContext {
  return {
    appUrl,
    referenceUrl: shared.reference.baseUrl,
    userTokens: [],
    adminToken: '',
    users: dataset.users,
    password: process.env.BENCH_PASSWORD ?? SEED_PASSWORD,
    searchWindow: shared.searchWindow,
    bigRoom,
    department: dataset.department,
    bookings,
    floorPlanDepartmentId,
  };
}

/**
 * The rounds on one database: every scenario at saturation in turn (a warm-up before its first
 * measured run), then those with a fixed rate at that rate. `requestLogOff`: a second server with
 * REQUEST_LOG=false, on which GET /api/self is measured right after it is on the first.
 */
async function runRounds(
  shared: Shared,
  label: string,
  app: ServerProcess,
  context: BenchContext,
  dataset: Dataset,
  plan: { scenarios: readonly Scenario[]; rounds: number; seconds: number; warmupSeconds: number; fixedRate: boolean; requestLogOff?: ServerProcess },
): Promise<{ saturation: Map<ScenarioId, Summary>; fixedRate: Map<ScenarioId, Summary>; requestLogOff?: Summary }> {
  const { options } = shared;
  const saturationRuns = new Map<ScenarioId, Measurement[]>();
  const fixedRateRuns = new Map<ScenarioId, Measurement[]>();
  const logOffRuns: Measurement[] = [];
  const record = (runs: Map<ScenarioId, Measurement[]>, id: ScenarioId, run: Measurement) => runs.set(id, [...(runs.get(id) ?? []), run]);
  const servers = [shared.reference, app, ...(plan.requestLogOff ? [plan.requestLogOff] : [])];

  const afterRun = async (title: string, result: Measurement) => {
    for (const server of servers) if (!server.running) throw new Error(`the ${server.name} exited during "${title}"; see ${server.logFile}`);
    await sleep(options.pauseMs);
    return result;
  };
  const urlOf = (scenario: Scenario) => (scenario.server === 'reference' ? context.referenceUrl : context.appUrl);
  const saturate = async (scenario: Scenario, seconds: number, url = urlOf(scenario)) => {
    const background = scenario.background?.(context);
    const result = await measure({ url, load: scenario.load(context), seconds, expected: scenario.expected }).finally(() => background?.stop());
    shared.serverErrors += result.serverErrors;
    return afterRun(scenario.title, result);
  };
  const line = (round: number, title: string, result: Measurement) =>
    progress(
      `${label} round ${round}/${plan.rounds}  ${title.padEnd(56)} ${Math.round(result.perSecond).toLocaleString('en-US').padStart(7)} req/s` +
        `  p50 ${result.p50} ms  p99 ${result.p99} ms  errors ${result.errors}  statuses ${JSON.stringify(result.statuses)}`,
    );

  for (let round = 1; round <= plan.rounds; round++) {
    await signInAll(context, dataset, options.tokenUsers);
    for (const scenario of plan.scenarios) {
      const measureOn = async () => {
        if (round === 1 && plan.warmupSeconds > 0) await saturate(scenario, plan.warmupSeconds);
        const result = await saturate(scenario, plan.seconds);
        record(saturationRuns, scenario.id, result);
        line(round, scenario.title, result);
      };
      if (scenario.id !== 'self' || !plan.requestLogOff) {
        await measureOn();
        continue;
      }
      const offUrl = plan.requestLogOff.baseUrl;
      const measureOff = async () => {
        if (round === 1 && plan.warmupSeconds > 0) await saturate(scenario, plan.warmupSeconds, offUrl);
        const off = await saturate(scenario, plan.seconds, offUrl);
        logOffRuns.push(off);
        line(round, `${scenario.title} (REQUEST_LOG=false)`, off);
      };
      // Which of the two goes first alternates between rounds, so neither always follows the heavier scenario.
      for (const run of round % 2 === 1 ? [measureOn, measureOff] : [measureOff, measureOn]) await run();
    }
    if (!plan.fixedRate) continue;
    for (const scenario of plan.scenarios.filter((s) => s.fixedRate !== undefined)) {
      const background = scenario.background?.(context);
      const result = await measureAtRate({
        url: urlOf(scenario),
        load: scenario.load(context),
        rate: scenario.fixedRate!,
        seconds: options.fixedRateSeconds,
        expected: scenario.expected,
      }).finally(() => background?.stop());
      shared.serverErrors += result.serverErrors;
      await afterRun(scenario.title, result);
      record(fixedRateRuns, scenario.id, result);
      progress(
        `${label} round ${round}/${plan.rounds}  ${scenario.title.padEnd(56)} at ${scenario.fixedRate} req/s: p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  errors ${result.errors}`,
      );
    }
  }
  const summaries = (runs: Map<ScenarioId, Measurement[]>) => new Map([...runs].map(([id, measurements]) => [id, summarize(measurements)] as const));
  return {
    saturation: summaries(saturationRuns),
    fixedRate: summaries(fixedRateRuns),
    requestLogOff: logOffRuns.length > 0 ? summarize(logOffRuns) : undefined,
  };
}

const writes = (scenarios: readonly Scenario[]) =>
  scenarios.some((scenario) => scenario.id === 'book' || scenario.id === 'book-hot' || scenario.id === 'series');

async function statementsOn(shared: Shared, open: (onQuery: QueryListener) => Promise<DatabaseHandle>, context: BenchContext, wire?: WireCounter) {
  progress(`Counting statements per request (${STATEMENT_REPEATS} requests of each scenario, in process) …`);
  return countStatements({
    open,
    wire,
    scenarios: shared.options.scenarios,
    context,
    adminEmail: SEED_ADMIN_EMAIL,
    users: 5,
    repeats: STATEMENT_REPEATS,
  });
}

/** PostgreSQL with the seeded large dataset: the rounds, the fixed-rate runs and the request-log line. */
async function runOnPostgres(shared: Shared, url: string, dataset: Dataset, db: DatabaseHandle): Promise<DatabaseRun> {
  const { options } = shared;
  await removeBenchRows(db.db, shared.benchRowsFrom);
  const bigRoom = await addBigRoom(db.db);
  const floorPlan = await benchFloorPlan(db.db);
  // Scenarios' own set-up (one run of each distinct prepare), undone when the run ends.
  for (const prepare of new Set(options.scenarios.flatMap((scenario) => (scenario.prepare ? [scenario.prepare] : [])))) await prepare(db.db, dataset);
  for (const cleanup of new Set(options.scenarios.flatMap((scenario) => (scenario.cleanup ? [scenario.cleanup] : [])))) {
    shared.cleanups.push(() => cleanup(db.db));
  }
  if (floorPlan.placedByBench) shared.cleanups.push(() => removeBenchFloorPlan(db.db, floorPlan.departmentId));
  const bookings = bookingsFor(shared, dataset);
  const wire = await WireCounter.start(url);
  let statements;
  try {
    statements = await statementsOn(
      shared,
      (onQuery) => openDatabase({ kind: 'postgres', url: wire.url, poolSize: 2, onQuery }),
      contextFor(shared, dataset, bigRoom, bookings, '', floorPlan.departmentId),
      wire,
    );
  } finally {
    await wire.close();
  }

  progress('Starting the server on PostgreSQL …');
  const target: Target = { kind: 'postgres', url };
  const servers: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  shared.cleanups.push(stop);
  try {
    const app = await startServer(options, 'server', target, shared.logDirectory);
    servers.push(app);
    const logOff = options.scenarios.some((scenario) => scenario.id === 'self')
      ? await startServer(options, 'server without request log', target, shared.logDirectory, false)
      : undefined;
    if (logOff) servers.push(logOff);
    const context = contextFor(shared, dataset, bigRoom, bookings, app.baseUrl, floorPlan.departmentId);
    const rss = new RssSampler(app);
    const measured = await runRounds(shared, 'PostgreSQL', app, context, dataset, {
      scenarios: options.scenarios,
      rounds: options.rounds,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      fixedRate: true,
      requestLogOff: logOff,
    });
    const memory = rss.finish();
    let overlaps: OverlapCounts | undefined;
    if (writes(options.scenarios)) overlaps = await countOverlaps(db.db, shared.benchRowsFrom);
    // The outbox job in this process, with the servers idle (their outbox jobs send no bench kind).
    let outbox: OutboxBench | undefined;
    if (options.outbox) outbox = await benchOutbox(url, options.quick ? OUTBOX_SIZES.quick : OUTBOX_SIZES.full, progress);
    let push: PushBench | undefined;
    if (options.push) push = await benchPush(url, options.quick ? PUSH_SIZES.quick : PUSH_SIZES.full, progress);
    return {
      kind: 'postgres',
      label: `PostgreSQL (database ${new URL(url).pathname.slice(1)})`,
      dataset: dataset.counts,
      rounds: options.rounds,
      warmupSeconds: options.warmupSeconds,
      seconds: options.seconds,
      ...measured,
      statements,
      memory,
      overlaps,
      outbox,
      push,
    };
  } finally {
    await stop();
    await removeBenchRows(db.db, shared.benchRowsFrom);
  }
}

/**
 * A fresh embedded PostgreSQL in a new DATA_DIR, seeded by the bench, then served by the server
 * as `npm start` without DATABASE_URL does (it starts the cluster itself; fsync on). The same
 * scenarios and rounds as on the PostgreSQL server (R2 and R3 read that server: left out).
 */
async function runOnEmbedded(shared: Shared): Promise<DatabaseRun> {
  const { options } = shared;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'deskbook-bench-embedded-'));
  shared.cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  progress(`Seeding the ${options.embeddedProfile} profile into a new embedded PostgreSQL (${dataDir}) …`);
  let dataset: Dataset;
  let bigRoom: BenchContext['bigRoom'];
  let floorPlan: { departmentId: string };
  let bookings: Bookings;
  let statements: Awaited<ReturnType<typeof statementsOn>>;
  const cluster = await startEmbeddedPostgres({ dataDir, database: EMBEDDED_DATABASE });
  try {
    const seeding = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 2, statementTimeoutMs: 3_600_000 });
    try {
      await migrate(seeding.db);
      await seed(seeding, { sizes: PROFILES[options.embeddedProfile], seed: 1 });
      dataset = await readDataset(seeding.db, dataDir, 'the bench seeds it itself');
      bigRoom = await addBigRoom(seeding.db);
      floorPlan = await benchFloorPlan(seeding.db);
    } finally {
      await seeding.close();
    }
    bookings = bookingsFor(shared, dataset);
    statements = await statementsOn(
      shared,
      (onQuery) => openDatabase({ kind: 'postgres', url: cluster.url, onQuery }),
      contextFor(shared, dataset, bigRoom, bookings, '', floorPlan.departmentId),
    );
  } finally {
    // The server starts the cluster itself, as it does for `npm start`.
    await cluster.stop();
  }

  progress('Starting the server on the embedded PostgreSQL …');
  const app = await startServer(options, 'server on embedded PostgreSQL', { kind: 'embedded', dataDir }, shared.logDirectory);
  shared.cleanups.push(() => app.stop());
  let measured;
  let memory;
  let databaseMemory;
  try {
    const rss = new RssSampler(app);
    measured = await runRounds(
      shared,
      'embedded PostgreSQL',
      app,
      contextFor(shared, dataset, bigRoom, bookings, app.baseUrl, floorPlan.departmentId),
      dataset,
      {
        scenarios: options.scenarios.filter((scenario) => !scenario.postgresOnly),
        rounds: options.rounds,
        seconds: options.seconds,
        warmupSeconds: options.warmupSeconds,
        fixedRate: false,
      },
    );
    memory = rss.finish();
    databaseMemory = rss.childrenPss();
  } finally {
    await app.stop();
  }
  let overlaps: OverlapCounts | undefined;
  if (writes(options.scenarios)) {
    const again = await startEmbeddedPostgres({ dataDir, database: EMBEDDED_DATABASE });
    const check = await openDatabase({ kind: 'postgres', url: again.url, poolSize: 1 });
    try {
      overlaps = await countOverlaps(check.db, shared.benchRowsFrom);
    } finally {
      await check.close();
      await again.stop();
    }
  }
  return {
    kind: 'embedded',
    label: `embedded PostgreSQL (the default set-up), ${options.embeddedProfile} profile`,
    dataset: dataset.counts,
    rounds: options.rounds,
    warmupSeconds: options.warmupSeconds,
    seconds: options.seconds,
    ...measured,
    statements,
    memory,
    databaseMemory,
    overlaps,
  };
}

async function main(): Promise<number> {
  const started = performance.now();
  const options = parseCommandLine();
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const today = new Date(Math.floor(Date.now() / DAY) * DAY);
  const logDirectory = mkdtempSync(path.join(os.tmpdir(), 'deskbook-bench-'));
  const shared: Omit<Shared, 'reference'> = {
    options,
    logDirectory,
    searchWindow: nextWorkdayWindow(new Date()),
    today,
    benchRowsFrom: new Date(today.getTime() + 365 * DAY),
    cleanups: [],
    serverErrors: 0,
  };
  const cleanUp = async () => {
    for (const cleanup of shared.cleanups.reverse()) await cleanup().catch(() => {});
    shared.cleanups = [];
  };
  process.once('SIGINT', () => {
    progress('Interrupted: stopping the servers and removing the bench rows …');
    void cleanUp().finally(() => process.exit(130));
  });

  let exitCode = 0;
  let postgres: DatabaseHandle | undefined;
  try {
    let dataset: Dataset | undefined;
    if (options.postgres) {
      // Its own pool, beside the servers'; statements may take long (pending index migrations).
      postgres = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 2, statementTimeoutMs: 3_600_000 });
      const handle = postgres;
      dataset = await readDataset(handle.db, databaseUrl, `DATABASE_URL=${databaseUrl} npm run seed -- --profile large`);
      // On a large database an index migration can outlast the server's start-up timeout, and start-up is not what is measured.
      progress('Applying pending migrations …');
      const applied = await migrate(handle.db);
      if (applied > 0) progress(`Applied ${applied} migration${applied === 1 ? '' : 's'}.`);
      shared.cleanups.push(() => removeBenchRows(handle.db, shared.benchRowsFrom));
    }
    if (options.build) build();
    if (!options.source && !existsSync(projectPath('dist', 'server.js'))) fail('dist/server.js is missing: run without --skip-build.');

    progress(`Starting the reference server (logs in ${logDirectory}) …`);
    const referencePort = await freePort();
    const reference = await ServerProcess.start({
      name: 'reference server',
      args: ['--import', 'tsx', projectPath('scripts', 'bench', 'reference-server.ts')],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        ...(options.postgres ? { DATABASE_URL: databaseUrl } : {}),
        PORT: String(referencePort),
      },
      port: referencePort,
      readyPath: '/r1',
      logFile: path.join(logDirectory, 'reference-server.log'),
    });
    shared.cleanups.push(() => reference.stop());
    const full: Shared = { ...shared, reference };

    const runs: DatabaseRun[] = [];
    if (postgres && dataset) runs.push(await runOnPostgres(full, databaseUrl, dataset, postgres));
    if (options.embedded) runs.push(await runOnEmbedded(full));

    const report: BenchReport = {
      date: new Date(),
      quick: options.quick,
      machine: machine(dataset?.postgresVersion),
      parameters: {
        connections: CONNECTIONS,
        fixedRateSeconds: options.fixedRateSeconds,
        statementRepeats: STATEMENT_REPEATS,
        hotDesks: HOT_DESKS,
        searchWindow: shared.searchWindow,
        department: dataset?.department ?? { location: '?', building: '?', floor: 0 },
      },
      serverSettings: SERVER_SETTINGS,
      runs,
    };

    process.stdout.write(`\n${resultsMarkdown(report)}\n`);
    if (options.writeDocs) progress(`\nWrote ${writeDocument(documentSection(report))}`);

    if (full.serverErrors > 0) {
      progress(`FAILED: ${full.serverErrors} responses (warm-ups included) were 5xx; see the logs in ${logDirectory}`);
      exitCode = 1;
    }
    if (runs.some((run) => run.overlaps && run.overlaps.deskOverlaps + run.overlaps.userOverlaps > 0)) {
      progress('FAILED: some of the reservations the bench created overlap');
      exitCode = 1;
    }
  } catch (error) {
    if (!(error instanceof BenchFailure)) throw error;
    progress(error.message);
    exitCode = 1;
  } finally {
    await cleanUp();
    await postgres?.close();
  }
  progress(`The bench took ${((performance.now() - started) / 60_000).toFixed(1)} minutes.`);
  return exitCode;
}

process.exitCode = await main();
