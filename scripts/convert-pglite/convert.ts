import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client.js';
import { clientUrl } from '../../src/db/connection-url.js';
import { liveOwner } from '../../src/db/data-dir-lock.js';
import { hasLegacyPglite, legacyPgliteDir, startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { migrate } from '../../src/db/migrate.js';
import { EMBEDDED_DATABASE } from '../../src/db/open-configured.js';
import { projectPath } from '../../src/shared/paths.js';

/**
 * Carries a DATA_DIR of Deskbook ≤ 0.1 (an embedded PGlite database in DATA_DIR/pgdata) over
 * into the embedded PostgreSQL (docs/deployment.md#from-pglite-to-the-embedded-postgresql):
 * 1. a new cluster in DATA_DIR/postgres is migrated to the PGlite database's level (the
 *    migrations it has applied, a prefix of the committed ones), so both sides have the same tables;
 * 2. every table's rows are copied in one transaction (COPY text format, triggers off: the rows
 *    they made are copied too), the row counts of every table compared, sequences set past their
 *    highest value;
 * 3. the rest of the migrations run on the new cluster, as an upgrade of the old install would;
 * 4. DATA_DIR/pgdata is renamed to pgdata.converted-<time>, kept until the admin deletes it.
 * Any failure removes the new cluster and leaves the PGlite folder as it was.
 *
 * PGlite is no dependency of Deskbook any more: the version that wrote these folders is
 * installed into DATA_DIR/.pglite-converter for the conversion (from the npm registry).
 */
const PGLITE_VERSION = '0.3.16';

export interface ConversionResult {
  tables: { name: string; rows: number }[];
  keptAs: string;
}

export type PgliteResult<T> = { rows: T[]; blob?: Blob };
export interface Pglite {
  waitReady: Promise<void>;
  query<T>(text: string, params?: unknown[], options?: object): Promise<PgliteResult<T>>;
  exec(text: string): Promise<unknown>;
  transaction<T>(work: (tx: { query: Pglite['query']; exec: Pglite['exec'] }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PGlite as the old Deskbook ran it, installed into `prefix` when missing. */
export async function loadPglite(prefix: string, log: (line: string) => void) {
  const entry = (sub: string) => pathToFileURL(path.join(prefix, 'node_modules', '@electric-sql', 'pglite', 'dist', sub)).href;
  if (!existsSync(path.join(prefix, 'node_modules', '@electric-sql', 'pglite', 'package.json'))) {
    log(`Installing PGlite ${PGLITE_VERSION} (only for this conversion) into ${prefix} …`);
    mkdirSync(prefix, { recursive: true });
    execFileSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', prefix, `@electric-sql/pglite@${PGLITE_VERSION}`],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
  }
  const { PGlite } = (await import(entry('index.js'))) as { PGlite: new (dir: string, options: object) => Pglite };
  const { btree_gist } = (await import(entry('contrib/btree_gist.js'))) as { btree_gist: unknown };
  const { pg_trgm } = (await import(entry('contrib/pg_trgm.js'))) as { pg_trgm: unknown };
  return { PGlite, extensions: { btree_gist, pg_trgm }, prefix };
}

/**
 * How many of the committed migrations the PGlite database has: they must be the first ones (an
 * install only ever applied them in order); anything else is refused.
 */
async function pgliteLevel(db: Pglite): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder: projectPath('migrations') });
  const applied = new Set(
    (await db.query<{ created_at: string }>('select created_at from drizzle.__drizzle_migrations')).rows.map((row) => Number(row.created_at)),
  );
  const level = migrations.findIndex((migration) => !applied.has(migration.folderMillis));
  const count = level === -1 ? migrations.length : level;
  if (applied.size !== count) throw new Error(`the PGlite database has migrations this Deskbook does not know, or not in order (${applied.size} applied)`);
  return count;
}

/** Applies the first `upTo` migrations to a PGlite database, as src/db/migrate.ts does (tests make old folders with it). */
export async function migratePglite(db: Pglite, upTo = Infinity): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder: projectPath('migrations') });
  return db.transaction(async (tx) => {
    await tx.exec('create schema if not exists drizzle');
    await tx.exec('create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
    const applied = new Set(
      (await tx.query<{ created_at: string }>('select created_at from drizzle.__drizzle_migrations')).rows.map((row) => Number(row.created_at)),
    );
    let count = 0;
    for (const migration of migrations.slice(0, upTo)) {
      if (applied.has(migration.folderMillis)) continue;
      for (const statement of migration.sql) if (statement.trim()) await tx.exec(statement);
      await tx.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [migration.hash, migration.folderMillis]);
      count++;
    }
    return count;
  });
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function convertPgliteDataDir(options: { dataDir: string; log?: (line: string) => void }): Promise<ConversionResult> {
  const log = options.log ?? (() => {});
  const dataDir = path.resolve(options.dataDir);
  if (!hasLegacyPglite(dataDir)) throw new Error(`${legacyPgliteDir(dataDir)} holds no PGlite database: nothing to convert`);
  const owner = liveOwner(dataDir);
  if (owner) throw new Error(`DATA_DIR ${dataDir} is in use by a Deskbook process (pid ${owner.pid}); stop it first`);
  const clusterDir = path.join(dataDir, 'postgres');
  if (existsSync(path.join(clusterDir, 'data', 'PG_VERSION'))) {
    throw new Error(`${clusterDir} already holds an embedded PostgreSQL; move it away to convert ${legacyPgliteDir(dataDir)} again`);
  }
  const { PGlite, extensions, prefix } = await loadPglite(path.join(dataDir, '.pglite-converter'), log);
  const source = new PGlite(legacyPgliteDir(dataDir), { extensions });
  await source.waitReady;
  let cluster: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  try {
    const level = await pgliteLevel(source);
    const tables = (await source.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by tablename`)).rows.map(
      (row) => row.name,
    );

    cluster = await startEmbeddedPostgres({ dataDir, database: EMBEDDED_DATABASE, besideLegacyPglite: true, log });
    const target = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 1, statementTimeoutMs: 3_600_000 });
    try {
      await migrate(target.db, undefined, level);
    } finally {
      await target.close();
    }
    const { url, options: socket } = clientUrl(cluster.url);
    const sql = postgres(url, { ...socket, max: 1, onnotice: () => {} });
    const copied: { name: string; rows: number }[] = [];
    try {
      await sql.begin(async (tx) => {
        // Triggers (foreign keys included) stay off: the rows they made are copied as they are.
        await tx.unsafe('set local session_replication_role = replica');
        await tx.unsafe('set local statement_timeout = 0');
        for (const table of tables) {
          const columns = (
            await source.query<{ name: string }>(
              `select column_name as name from information_schema.columns where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
              [table],
            )
          ).rows.map((row) => quote(row.name));
          const list = columns.join(', ');
          await tx.unsafe(`delete from public.${quote(table)}`);
          const dump = await source.query(`copy public.${quote(table)} (${list}) to '/dev/blob'`);
          const text = dump.blob ? Buffer.from(await dump.blob.arrayBuffer()) : Buffer.alloc(0);
          if (text.length > 0) {
            const stream = await tx.unsafe(`copy public.${quote(table)} (${list}) from stdin`).writable();
            await new Promise<void>((resolve, reject) => {
              stream.on('error', reject);
              stream.end(text, () => resolve());
            });
          }
          const [{ count: sourceCount }] = (await source.query<{ count: string }>(`select count(*)::text as count from public.${quote(table)}`)).rows as [
            { count: string },
          ];
          const [{ count: targetCount }] = (await tx.unsafe(`select count(*)::text as count from public.${quote(table)}`)) as unknown as [{ count: string }];
          if (sourceCount !== targetCount) throw new Error(`table ${table}: ${sourceCount} rows in PGlite, ${targetCount} copied`);
          copied.push({ name: table, rows: Number(sourceCount) });
        }
        // Serial and identity columns continue after the highest copied value.
        const sequences = (await tx.unsafe(`
          select s.relname as seq, t.relname as tab, a.attname as col
          from pg_class s
          join pg_depend d on d.objid = s.oid and d.deptype in ('a', 'i')
          join pg_class t on t.oid = d.refobjid
          join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
          join pg_namespace n on n.oid = t.relnamespace
          where s.relkind = 'S' and n.nspname = 'public'`)) as unknown as { seq: string; tab: string; col: string }[];
        for (const { seq, tab, col } of sequences) {
          await tx.unsafe(`select setval('public.${quote(seq)}', coalesce((select max(${quote(col)}) from public.${quote(tab)}), 0) + 1, false)`);
        }
      });
    } finally {
      await sql.end({ timeout: 5 });
    }
    const upgrade = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 1, statementTimeoutMs: 3_600_000 });
    try {
      const later = await migrate(upgrade.db);
      if (later > 0) log(`Applied the ${later} migration(s) of later versions to the new database.`);
    } finally {
      await upgrade.close();
    }
    await cluster.stop();
    cluster = undefined;
    await source.close();
    const keptAs = `${legacyPgliteDir(dataDir)}.converted-${new Date().toISOString().replaceAll(':', '-').slice(0, 19)}`;
    renameSync(legacyPgliteDir(dataDir), keptAs);
    rmSync(prefix, { recursive: true, force: true });
    return { tables: copied, keptAs };
  } catch (error) {
    await source.close().catch(() => {});
    if (cluster) await cluster.stop().catch(() => {});
    // The new cluster holds nothing that is not still in the PGlite folder.
    rmSync(clusterDir, { recursive: true, force: true });
    throw error;
  }
}
