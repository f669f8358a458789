import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/docs.js';
import { projectPath } from '../../src/shared/paths.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/** The part of test/docs.test.ts that needs a service on a database (the api tier, docs/testing.md#tiers). */
describe('generated documentation is current (run `npm run docs` after changing routes or errors)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.dispose());

  it('docs/openapi.json is the document the service serves', async () => {
    expect(readFileSync(projectPath('docs', 'openapi.json'), 'utf8')).toBe(await openApiDocument(database.handle));
  });
});
