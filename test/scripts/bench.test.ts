/**
 * `npm run bench` in quick mode, from source (no build), for a few seconds per scenario, on a
 * fresh PostgreSQL database seeded with the small profile. Checks that the printed tables
 * hold every scenario with its statements per request (docs/benchmarks.md#statements-per-request)
 * and the outbox's figures (docs/benchmarks.md#the-outbox), and that the run leaves no rows of its own behind.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { projectPath } from '../../src/shared/paths.js';
import { BIG_ROOM_NAME } from '../../scripts/bench/database.js';
import { WireCounter } from '../../scripts/bench/wire-counter.js';
import { NPM_START_NODE_FLAGS, serverArguments } from '../../scripts/bench/processes.js';
import { SCENARIOS } from '../../scripts/bench/scenarios.js';
import { PROFILES, seed } from '../../scripts/seed/seed.js';
import { createPostgresDatabase } from '../helpers/database.js';

const RUN_TIMEOUT_MS = 300_000;

function runBench(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench.ts', ...args], {
      cwd: projectPath(),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The rows of the printed Markdown tables, by their first cell (the scenario's title). */
function tableRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| ---') || line.startsWith('| scenario') || line.startsWith('| target')) continue;
    const cells = line
      .slice(2, -2)
      .split(' | ')
      .map((cell) => cell.trim());
    if (!rows.has(cells[0]!)) rows.set(cells[0]!, cells);
  }
  return rows;
}

/** Statement cells: "2", "2–3", optionally "(first 6)". */
const STATEMENTS = /^\d+(–\d+)?( \(first \d+\))?$/;
const QUICK = ['--quick', '--source', '--duration', '0.5', '--warmup', '0'];

function expectEveryScenario(stdout: string, heading: RegExp, scenarios = SCENARIOS) {
  expect(stdout).toMatch(heading);
  const rows = tableRows(stdout.slice(stdout.search(heading)));
  for (const scenario of scenarios) {
    const row = rows.get(scenario.title);
    expect(row, `row of ${scenario.id}`).toBeDefined();
    const requests = Number(row![1]!.replaceAll(',', ''));
    expect(requests, `req/s of ${scenario.id}`).toBeGreaterThanOrEqual(0);
    if (scenario.server === 'app') expect(row![6], `statements of ${scenario.id}`).toMatch(STATEMENTS);
    else expect(row![6]).toBe('–');
  }
}

describe('npm run bench (command line)', () => {
  it('runs the server with the V8 flags of npm start', () => {
    const start = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toContain(`node ${NPM_START_NODE_FLAGS.join(' ')} dist/server.js`);
    expect(serverArguments(false)).toEqual([...NPM_START_NODE_FLAGS, projectPath('dist', 'server.js')]);
  });

  it('lists every scenario in --help and refuses an unknown one', async () => {
    const help = await runBench(['--help']);
    expect(help.code).toBe(0);
    for (const scenario of SCENARIOS) expect(help.stdout).toContain(scenario.id);
    expect(help.stdout).toContain('outbox (the outbox job');
    expect(help.stdout).toContain('push (pushes through the outbox');
    const refused = await runBench(['--only', 'self,nonsense']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown scenario nonsense');
  });
});

describe('npm run bench --quick on PostgreSQL', () => {
  let url: string;
  let drop: () => Promise<void>;
  let database: DatabaseHandle;

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    url = created.url;
    drop = created.drop;
    database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
    await migrate(database.db);
    await seed(database, { sizes: PROFILES.small, seed: 3 });
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  it(
    'prints every scenario with statements counted on the wire, the request-log line, and removes its rows',
    async () => {
      const before = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from reservations`);
      const { code, stdout, stderr } = await runBench([...QUICK, '--database', 'postgres'], { BENCH_DATABASE_URL: url });
      expect(code, stderr).toBe(0);
      expectEveryScenario(stdout, /### PostgreSQL \(database deskbook_test_/);
      expect(tableRows(stdout).get('GET /api/self')![6]).not.toBe('0');
      expect(stdout).toMatch(/Request logging: GET \/api\/self answers [\d,]+ req\/s with REQUEST_LOG=true and [\d,]+ req\/s with REQUEST_LOG=false/);
      expect(stdout).toContain('Latency at a fixed rate below saturation');
      // The outbox (docs/benchmarks.md#the-outbox): every quick mail reached the SMTP server; a claim's cost with 100, 1,000 and 10,000 rows pending.
      expect(stdout).toMatch(
        /Outbox \(docs\/benchmarks\.md#the-outbox\): 100 mails for 20 people sent to an SMTP server on this machine in [\d.]+ s: [\d,]+ mails\/s, [\d.]+ statements per mail \(100 received\)/,
      );
      for (const backlog of ['100', '1,000', '10,000']) expect(stdout).toMatch(new RegExp(`\\| ${backlog} \\| [\\d.]+ \\| \\d+ \\|`));
      const [outboxLeft] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from outbox where kind = 'bench.mail'`);
      expect(outboxLeft!.n).toBe(0);
      // Push (docs/benchmarks.md#push): every quick push reached the local push service; the bench's users are gone.
      expect(stdout).toMatch(/Push \(docs\/benchmarks\.md#push\): 100 notices for 20 people .+ [\d,]+ pushes\/s, [\d.]+ statements per push \(100 received\)/);
      const [pushLeft] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from users where email like 'push-bench-%'`);
      expect(pushLeft!.n).toBe(0);

      const [after] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from reservations`);
      expect(after!.n).toBe(before[0]!.n);
      const leftovers = await queryRows(
        database.db,
        sql`select 1 from rooms where name = ${BIG_ROOM_NAME} union all select 1 from sessions where user_agent = 'deskbook-bench'`,
      );
      expect(leftovers).toEqual([]);
    },
    RUN_TIMEOUT_MS,
  );
});

describe('the wire counter (statements per request on PostgreSQL)', () => {
  it('counts every statement run, prepared or simple, and a transaction with its BEGIN and COMMIT', async () => {
    const created = await createPostgresDatabase();
    const wire = await WireCounter.start(created.url);
    const database = await openDatabase({ kind: 'postgres', url: wire.url, poolSize: 1 });
    try {
      // Opening a connection costs statements of its own (the driver's type lookup): not counted here.
      await database.db.execute(sql`select 1`);
      wire.count = 0;
      wire.counting = true;
      await database.db.execute(sql`select ${1}::int as one`);
      await database.db.execute(sql`select ${1}::int as one`);
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`select 2`);
      });
      wire.counting = false;
      await database.db.execute(sql`select 3`);
      expect(wire.count).toBe(5);
    } finally {
      await database.close();
      await wire.close();
      await created.drop();
    }
  });
});
