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

  const write = (file: string, text: string) => writeFileSync(file, text);
  const stamp = () => write(path.join(output, '.source-hash'), `${webSourceHash(source, lock)}\n`);

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'deskbook-build-'));
    source = path.join(root, 'web');
    output = path.join(root, 'dist', 'web');
    lock = path.join(root, 'package-lock.json');
    mkdirSync(path.join(source, 'src'), { recursive: true });
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
    expect(webBuildIsCurrent(output, source, lock)).toBe(true);
  });

  it('is stale without a build or without a stamp', () => {
    expect(webBuildIsCurrent(output, source, lock)).toBe(false);
    stamp();
    unlinkSync(path.join(output, 'index.html'));
    expect(webBuildIsCurrent(output, source, lock)).toBe(false);
  });

  it('is stale once a source, the Vite config or the dependencies change', () => {
    for (const change of [
      () => write(path.join(source, 'src', 'main.tsx'), 'console.log(2);'),
      () => write(path.join(source, 'vite.config.ts'), 'export default { base: "/" };'),
      () => write(path.join(source, 'src', 'extra.ts'), ''),
      () => renameSync(path.join(source, 'src', 'main.tsx'), path.join(source, 'src', 'app.tsx')),
      () => write(lock, '{"lockfileVersion":3,"packages":{}}'),
    ]) {
      stamp();
      change();
      expect(webBuildIsCurrent(output, source, lock)).toBe(false);
    }
  });

  it('does not depend on when or in which order files were written', () => {
    const before = webSourceHash(source, lock);
    write(path.join(source, 'src', 'main.tsx'), 'console.log(1);');
    expect(webSourceHash(source, lock)).toBe(before);
  });
});
