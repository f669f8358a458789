import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webBuildIsCurrent, webSourceHash } from '../../scripts/build-web.js';

/** `npm start` rebuilds the web app when its output is missing or was made from other sources. */
describe('web build staleness', () => {
  let root: string;
  let source: string;
  let output: string;
  let lock: string;
  let shared: string;

  const write = (file: string, text: string) => writeFileSync(file, text);
  const stamp = () => write(path.join(output, '.source-hash'), `${webSourceHash(source, lock, [shared])}\n`);
  const current = () => webBuildIsCurrent(output, source, lock, [shared]);

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'deskbook-build-'));
    source = path.join(root, 'web');
    output = path.join(root, 'dist', 'web');
    lock = path.join(root, 'package-lock.json');
    shared = path.join(root, 'src', 'shared', 'fields.ts');
    mkdirSync(path.join(source, 'src'), { recursive: true });
    mkdirSync(path.dirname(shared), { recursive: true });
    write(shared, 'export const SHORT_TEXT_MAX = 200;');
    mkdirSync(output, { recursive: true });
    write(path.join(source, 'index.html'), '<div id="root"></div>');
    write(path.join(source, 'vite.config.ts'), 'export default {};');
    write(path.join(source, 'src', 'main.tsx'), 'console.log(1);');
    write(lock, '{"lockfileVersion":3}');
    write(path.join(output, 'index.html'), 'built');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is current when the stamp matches the sources', () => {
    stamp();
    expect(current()).toBe(true);
  });

  it('is stale without a build or without a stamp', () => {
    expect(current()).toBe(false);
    stamp();
    unlinkSync(path.join(output, 'index.html'));
    expect(current()).toBe(false);
  });

  it('is stale once a source, the Vite config or the dependencies change', () => {
    for (const change of [
      () => write(path.join(source, 'src', 'main.tsx'), 'console.log(2);'),
      () => write(path.join(source, 'vite.config.ts'), 'export default { base: "/" };'),
      () => write(path.join(source, 'src', 'extra.ts'), ''),
      () => renameSync(path.join(source, 'src', 'main.tsx'), path.join(source, 'src', 'app.tsx')),
      () => write(lock, '{"lockfileVersion":3,"packages":{}}'),
      // A server file the web app bundles (its forms share the field schemas).
      () => write(shared, 'export const SHORT_TEXT_MAX = 100;'),
    ]) {
      stamp();
      change();
      expect(current()).toBe(false);
    }
  });

  it('does not depend on when or in which order files were written, nor on installed packages', () => {
    const before = webSourceHash(source, lock, [shared]);
    write(path.join(source, 'src', 'main.tsx'), 'console.log(1);');
    mkdirSync(path.join(source, 'node_modules', '.vite'), { recursive: true });
    write(path.join(source, 'node_modules', '.vite', 'deps.json'), '{}');
    expect(webSourceHash(source, lock, [shared])).toBe(before);
  });
});
