import { defineConfig } from 'vitest/config';

// Every test file runs on the embedded database (PGlite); with TEST_DATABASE_URL set (an admin
// connection to a PostgreSQL server) it runs a second time against that server, each test file
// in a fresh database of its own.
const shared = { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 };
const projects = [{ test: { ...shared, name: 'pglite', env: { TEST_DB: 'pglite' } } }];
if (process.env.TEST_DATABASE_URL) projects.push({ test: { ...shared, name: 'postgres', env: { TEST_DB: 'postgres' } } });

// .ci/run asks for a JSON report too (VITEST_JSON_REPORT), to print a plain closing line.
const jsonReport = process.env.VITEST_JSON_REPORT;
const reporting = jsonReport ? { reporters: ['default', 'json'], outputFile: { json: jsonReport } } : {};

export default defineConfig({ test: { projects, ...reporting } });
