import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS_END, ERRORS_START, errorsTable, openApiDocument } from '../scripts/docs.js';
import { projectPath } from '../src/shared/paths.js';

const between = (text: string, start: string, end: string) => text.slice(text.indexOf(start) + start.length, text.indexOf(end)).trim();

describe.runIf(process.env.TEST_DB !== 'postgres')('generated documentation is current (run `npm run docs` after changing routes or errors)', () => {
  it('docs/errors.md lists the error catalogue', () => {
    const doc = readFileSync(projectPath('docs', 'errors.md'), 'utf8');
    expect(between(doc, ERRORS_START, ERRORS_END)).toBe(errorsTable());
  });

  it('docs/openapi.json is the document the service serves', async () => {
    expect(readFileSync(projectPath('docs', 'openapi.json'), 'utf8')).toBe(await openApiDocument());
  });
});
