import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { DataDirInUseError } from '../src/db/data-dir-lock.js';
import { EmbeddedPostgresError } from '../src/db/embedded-postgres.js';
import { openConfiguredDatabase, type ConfiguredDatabase } from '../src/db/open-configured.js';
import { migrate } from '../src/db/migrate.js';
import { PROFILES, SEED_ADMIN_EMAIL, SEED_PASSWORD, SeedRefusedError, seed, type ProfileName } from './seed/seed.js';
import { seededUserEmail } from './seed/generate.js';

const USAGE = `Usage: npm run seed -- --profile small|large [--seed <n>] [--reset]

Fills an empty database with generated departments, rooms, desks, equipment, users,
reservations and reports. Target: DATABASE_URL when set, else the embedded PostgreSQL under
DATA_DIR (that of the server running on DATA_DIR, if one runs). Every seeded account's password is "${SEED_PASSWORD}".

  --profile small|large  how much: small ≈ 1/100 of large (default small)
  --seed <n>             seed of the random generator (default 1): same seed, same data
  --reset                first empty departments, rooms, desks, equipment, department images,
                         reservations and reports (all their rows), and delete the users
                         userNNNNN@example.test (with their sessions and avatars)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function parseCommandLine() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        profile: { type: 'string', default: 'small' },
        seed: { type: 'string', default: '1' },
        reset: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!Object.hasOwn(PROFILES, parsed.profile)) fail(`unknown profile "${parsed.profile}"\n\n${USAGE}`);
  if (!/^\d{1,9}$/.test(parsed.seed)) fail(`--seed must be a whole number (got "${parsed.seed}")`);
  return { profile: parsed.profile as ProfileName, seed: Number(parsed.seed), reset: parsed.reset };
}

const options = parseCommandLine();
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

let configured: ConfiguredDatabase;
try {
  configured = await openConfiguredDatabase(config, { poolSize: 1, tool: true, log: (line) => console.log(line) });
} catch (error) {
  if (error instanceof DataDirInUseError || error instanceof EmbeddedPostgresError) fail(error.message);
  throw error;
}
const { database, embedded } = configured;
const target = configured.description;
try {
  const applied = await migrate(database.db);
  console.log(`Seeding profile "${options.profile}" (seed ${options.seed}) into ${target}${applied > 0 ? ` (${applied} migrations applied)` : ''}`);
  const sizes = PROFILES[options.profile];
  const result = await seed(database, { sizes, seed: options.seed, reset: options.reset, log: (line) => console.log(line) });
  console.log(`
Sign in with password "${SEED_PASSWORD}" as:
  ${SEED_ADMIN_EMAIL} (ADMIN)${result.admin.created ? '' : ' — it existed already, its password was left as it was'}
  ${seededUserEmail(0)} … ${seededUserEmail(sizes.users - 1)} (USER)`);
} catch (error) {
  if (!(error instanceof SeedRefusedError)) throw error;
  process.stderr.write(`Refused: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
  await embedded?.stop();
}
