import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { queryRows, type Database } from './client.js';
import { projectPath } from '../shared/paths.js';

/** Any 64-bit constant works; all processes of this service must agree on it. */
const MIGRATION_LOCK_KEY = 0x6465736b626f6f6bn; // "deskbook"

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Applies the committed SQL migrations in one transaction under a PostgreSQL advisory lock, so
 * two processes starting at once apply each migration exactly once (drizzle's own migrator reads
 * the applied list outside its transaction, which races). Keeps drizzle's bookkeeping table so
 * drizzle-kit tooling still understands the database. Returns how many migrations were applied.
 */
export async function migrate(db: Database, migrationsFolder = projectPath('migrations'), upTo = Infinity): Promise<number> {
  // upTo: only the first so many (the PGlite converter brings a database to an old install's level first).
  const migrations = readMigrationFiles({ migrationsFolder }).slice(0, upTo);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
    const applied = await queryRows<{ hash: string; created_at: string }>(
      tx as unknown as Database,
      sql`select hash, created_at from drizzle.__drizzle_migrations`,
    );
    const appliedByTime = new Map(applied.map((row) => [Number(row.created_at), row.hash]));
    let count = 0;
    for (const migration of migrations) {
      const appliedHash = appliedByTime.get(migration.folderMillis);
      if (appliedHash !== undefined) {
        if (appliedHash !== migration.hash) {
          throw new MigrationError(
            `migration of ${new Date(migration.folderMillis).toISOString()} was edited after it was applied; add a new migration instead`,
          );
        }
        continue;
      }
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`);
      count++;
    }
    return count;
  });
}
