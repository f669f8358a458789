import type { Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from './client.js';
import { startEmbeddedPostgres, type EmbeddedCluster } from './embedded-postgres.js';

export interface ConfiguredDatabase {
  database: DatabaseHandle;
  /** Set when DATABASE_URL is unset: the embedded cluster, to be stopped after the pool closes. */
  embedded?: EmbeddedCluster;
  /** Where the data lives, for log lines. */
  description: string;
}

/** The database the embedded cluster of DATA_DIR serves the service from. */
export const EMBEDDED_DATABASE = 'deskbook';

/**
 * The configured database: DATABASE_URL, or the embedded PostgreSQL under DATA_DIR
 * (docs/deployment.md#the-embedded-postgresql). `tool`: a command such as `npm run seed` that
 * uses the cluster of a server running on the same DATA_DIR instead of refusing; a second
 * server refuses (DataDirInUseError).
 */
export async function openConfiguredDatabase(
  config: Config,
  options: { poolSize?: number; tool?: boolean; log?: (message: string) => void } = {},
): Promise<ConfiguredDatabase> {
  const settings = {
    kind: 'postgres' as const,
    poolSize: options.poolSize ?? config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT,
  };
  if (config.DATABASE_URL) {
    const url = new URL(config.DATABASE_URL);
    return {
      database: await openDatabase({ ...settings, url: config.DATABASE_URL, pooler: config.DATABASE_POOLER }),
      description: `PostgreSQL at ${url.host || url.searchParams.get('host') || 'localhost'}${url.pathname}`,
    };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, database: EMBEDDED_DATABASE, shareWithOwner: options.tool, log: options.log });
  try {
    return {
      database: await openDatabase({ ...settings, url: embedded.url }),
      embedded,
      description: `the embedded PostgreSQL in ${config.DATA_DIR}${embedded.owned ? '' : ` (run by the Deskbook process ${embedded.pid})`}`,
    };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}
