import { ConfigError, loadConfig } from '../src/config.js';
import { convertPgliteDataDir } from './convert-pglite/convert.js';

/** `npm run db:convert-pglite`: docs/deployment.md#from-pglite-to-the-embedded-postgresql. */
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
if (config.DATABASE_URL) {
  process.stderr.write('DATABASE_URL is set: the conversion fills the embedded PostgreSQL of DATA_DIR; unset it to convert.\n');
  process.exit(1);
}
try {
  const result = await convertPgliteDataDir({ dataDir: config.DATA_DIR, log: (line) => console.log(line) });
  const rows = result.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`Converted ${result.tables.length} tables, ${rows} rows (counts checked table by table).`);
  console.log(`The PGlite folder is kept as ${result.keptAs}; delete it once Deskbook runs as it should.`);
} catch (error) {
  process.stderr.write(`Conversion failed, nothing was changed: ${(error as Error).message}\n`);
  process.exit(1);
}
