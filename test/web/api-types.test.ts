import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectPath } from '../../src/shared/paths.js';

/**
 * The web app's API types are generated from the service's OpenAPI document (`npm run api:types`).
 * If this fails, the document changed without the types: run `npm run docs && npm run api:types`
 * and fix what the type-check of web/ then reports.
 */
describe('web/src/api/schema.d.ts', () => {
  it('is what openapi-typescript makes of the current docs/openapi.json', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskbook-api-types-'));
    try {
      const output = path.join(dir, 'schema.d.ts');
      const run = spawnSync(
        process.execPath,
        [projectPath('node_modules', 'openapi-typescript', 'bin', 'cli.js'), projectPath('docs', 'openapi.json'), '--output', output],
        { encoding: 'utf8' },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(projectPath('web', 'src', 'api', 'schema.d.ts'), 'utf8')).toBe(readFileSync(output, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
