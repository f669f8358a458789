import Fastify from 'fastify';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
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
const database = await openDatabase(
  config.DATABASE_URL
    ? {
        kind: 'postgres',
        url: config.DATABASE_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT,
        statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT,
      }
    : { kind: 'pglite', dataDir: config.DATA_DIR, statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT },
);
const app = Fastify(serverOptions(config));
// Further connections are closed as they arrive, before they cost any parsing.
app.server.maxConnections = config.HTTP_MAX_CONNECTIONS;

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'stopping: finishing in-flight requests');
  const deadline = setTimeout(() => {
    app.log.error('in-flight requests did not finish in time; exiting');
    process.exit(1);
  }, config.SHUTDOWN_TIMEOUT);
  deadline.unref();
  await app.close();
  await database.close();
  app.log.info('stopped');
  process.exit(0);
}
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));

try {
  await app.register(deskbook, { config, database });
  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ database: database.kind }, `Deskbook is ready: ${config.PUBLIC_URL} (API docs at /api/docs)`);
} catch (error) {
  app.log.fatal({ err: error }, 'start-up failed');
  await database.close().catch(() => {});
  process.exit(1);
}
