import { readFileSync, writeFileSync } from 'node:fs';
import { projectPath } from '../src/shared/paths.js';
import { CONFIG_END, CONFIG_START, configurationTable, ERRORS_END, ERRORS_START, errorsTable, openApiDocument, replaceBetween } from './docs.js';

// `npm run docs`: regenerates the tables in docs/ and docs/openapi.json from the code.
const update = (file: string, start: string, end: string, content: string) => {
  const path = projectPath('docs', file);
  writeFileSync(path, replaceBetween(readFileSync(path, 'utf8'), start, end, content));
};
update('configuration.md', CONFIG_START, CONFIG_END, configurationTable());
update('errors.md', ERRORS_START, ERRORS_END, errorsTable());
writeFileSync(projectPath('docs', 'openapi.json'), await openApiDocument());
console.log('docs/configuration.md, docs/errors.md and docs/openapi.json are up to date');
