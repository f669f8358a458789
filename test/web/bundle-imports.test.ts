import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_SHARED_SOURCES } from '../../scripts/build-web.js';
import { projectPath } from '../../src/shared/paths.js';

/**
 * The web app bundles a few server files (the field schemas its forms share with the routes). They
 * must stay free of server-only code, and the web build must know them (its staleness hash).
 */

const WEB = projectPath('web');
const IMPORT = /\bfrom\s+'([^']+)'|\bimport\s+'([^']+)'/g;

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => match[1] ?? match[2]!);
}

const webSources = readdirSync(path.join(WEB, 'src'), { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
  .map((entry) => path.join(entry.parentPath, entry.name));

/** A relative import's file (the sources import .ts files by their .js name). */
const resolve = (from: string, specifier: string) => path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts');

describe('server files in the web bundle', () => {
  it('are only the ones the web build hashes', () => {
    const outside = new Set<string>();
    for (const file of webSources) {
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(file, specifier);
        if (!target.startsWith(WEB + path.sep)) outside.add(target);
      }
    }
    expect([...outside].sort()).toEqual([...WEB_SHARED_SOURCES].sort());
  });

  it('import nothing but TypeBox', () => {
    for (const file of WEB_SHARED_SOURCES) expect({ file, imports: importsOf(file) }).toEqual({ file, imports: ['@sinclair/typebox'] });
  });
});
