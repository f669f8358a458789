import Fastify from 'fastify';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { EmbeddedPostgresError } from './db/embedded-postgres.js';
import { openConfiguredDatabase, type ConfiguredDatabase } from './db/open-configured.js';
import { unpatchedDriverQueues } from './db/postgres-patch.js';
import deskbook, { serverOptions } from './app.js';

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee docs/configuration.md for every setting.\n`);
      process.exit(1);
    }
    throw error;
  }
}

const config = configOrExit();
// docs/deployment.md#with-a-read-replica: the same settings as the primary, but a replica that
// does not answer within a second is passed over (its reads run on the primary).
const readDatabase =
  config.DATABASE_URL && config.DATABASE_READ_URL
    ? await openDatabase({
        kind: 'postgres',
        url: config.DATABASE_READ_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        connectTimeoutMs: Math.min(config.DATABASE_CONNECT_TIMEOUT, 1000),
        statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT,
        pooler: config.DATABASE_POOLER,
      })
    : undefined;
const app = Fastify(serverOptions(config));

// Without DATABASE_URL this starts the embedded PostgreSQL under DATA_DIR; a second server on
// the same DATA_DIR, or an old PGlite folder, stops here with a sentence and no stack trace.
let configured: ConfiguredDatabase;
try {
  configured = await openConfiguredDatabase(config, { log: (message) => app.log.info(message) });
} catch (error) {
  if (error instanceof DataDirInUseError || error instanceof EmbeddedPostgresError) {
    app.log.fatal(error.message);
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
const { database, embedded } = configured;
// Further connections are closed as they arrive, before they cost any parsing.
app.server.maxConnections = config.HTTP_MAX_CONNECTIONS;

// docs/deployment.md#rolling-restarts: readiness fails first, the process serves on for
// SHUTDOWN_DRAIN_DELAY (the balancer stops sending), then closes its listener and idle
// connections, finishes the requests in flight and exits.
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal, drainMs: config.SHUTDOWN_DRAIN_DELAY }, 'stopping: readiness fails now');
  const deadline = setTimeout(() => {
    app.log.error('in-flight requests did not finish in time; exiting');
    process.exit(1);
  }, config.SHUTDOWN_DRAIN_DELAY + config.SHUTDOWN_TIMEOUT);
  deadline.unref();
  if (config.SHUTDOWN_DRAIN_DELAY > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_DELAY));
  app.log.info('stopping: finishing in-flight requests');
  await app.close();
  await readDatabase?.close();
  await database.close();
  if (embedded?.owned) {
    app.log.info('stopping the embedded PostgreSQL');
    await embedded.stop();
  }
  app.log.info('stopped');
  process.exit(0);
}
// A repeated SIGTERM (some supervisors send one per attempt) must not cut the drain short; a
// second Ctrl-C (SIGINT) does end the process at once.
process.on('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));

try {
  await app.register(deskbook, { config, database, readDatabase, stopping: () => stopping });
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ database: configured.description }, `Deskbook is ready: ${config.PUBLIC_URL} (API docs at /api/docs)`);
  const unpatched = unpatchedDriverQueues();
  if (unpatched.length > 0)
    app.log.warn(
      { files: unpatched },
      'postgres.js runs without patches/postgres+3.4.9.patch (installed with --ignore-scripts?): run npm ci, see docs/upstream/postgres-queue.md',
    );
} catch (error) {
  app.log.fatal({ err: error }, 'start-up failed');
  await readDatabase?.close().catch(() => {});
  await database.close().catch(() => {});
  await embedded?.stop().catch(() => {});
  process.exit(1);
}
