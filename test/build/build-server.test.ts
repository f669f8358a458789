import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureServerBuilt, serverBuildIsCurrent, serverSourceHash } from '../../scripts/build-server.js';

/**
 * `npm start` compiles the server only when src/, the tsconfig files, package.json or the lock
 * file changed since the last compile, or an output is missing (docs/architecture.md#building).
 */
describe('server build', () => {
  let root: string;
  let compiled: number;

  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  /** Stands in for tsc: counts the runs and writes one .js per .ts, as tsc would. */
  const fakeTsc = (at: string) => {
    compiled++;
    for (const file of ['server', 'app', 'modules/a/a.service']) write(path.join('dist', `${file}.js`), `// compiled in ${at}`);
  };
  const build = () => ensureServerBuilt({ root, compile: fakeTsc });

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'deskbook-build-server-'));
    compiled = 0;
    write('src/server.ts', 'export {};');
    write('src/app.ts', 'export const app = 1;');
    write('src/modules/a/a.service.ts', 'export const a = 1;');
    write('src/types.d.ts', 'declare const x: number;');
    write('tsconfig.json', '{"compilerOptions":{"strict":true}}');
    write('tsconfig.build.json', '{"extends":"./tsconfig.json","include":["src"]}');
    write('package.json', '{"type":"module"}');
    write('package-lock.json', '{"lockfileVersion":3}');
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('compiles the first time, then not again while nothing changed', () => {
    expect(serverBuildIsCurrent(root)).toBe(false);
    expect(build()).toBe(true);
    expect(compiled).toBe(1);
    expect(serverBuildIsCurrent(root)).toBe(true);
    expect(build()).toBe(false);
    expect(build()).toBe(false);
    expect(compiled).toBe(1);
    // Writing a file with the same content (an editor's save, a checkout) is no change.
    write('src/app.ts', 'export const app = 1;');
    expect(build()).toBe(false);
    expect(compiled).toBe(1);
  });

  it('compiles again once a source, a tsconfig, package.json or the lock file changes, or a file comes or goes', () => {
    const changes: [string, () => void][] = [
      ['a source', () => write('src/app.ts', 'export const app = 2;')],
      ['a nested source', () => write('src/modules/a/a.service.ts', 'export const a = 2;')],
      ['a new file', () => write('src/extra.json', '{}')],
      ['a deleted file', () => unlinkSync(path.join(root, 'src', 'extra.json'))],
      ['tsconfig.json', () => write('tsconfig.json', '{"compilerOptions":{"strict":false}}')],
      ['tsconfig.build.json', () => write('tsconfig.build.json', '{"extends":"./tsconfig.json","include":["src"],"compilerOptions":{}}')],
      ['package.json', () => write('package.json', '{"type":"module","name":"x"}')],
      ['the lock file (another TypeScript)', () => write('package-lock.json', '{"lockfileVersion":3,"packages":{}}')],
    ];
    build();
    for (const [what, change] of changes) {
      const before = compiled;
      change();
      expect(serverBuildIsCurrent(root), what).toBe(false);
      expect(build(), what).toBe(true);
      expect(compiled, what).toBe(before + 1);
      expect(build(), what).toBe(false);
    }
  });

  it('compiles again when an output is missing, and when forced', () => {
    build();
    unlinkSync(path.join(root, 'dist', 'modules', 'a', 'a.service.js'));
    expect(build()).toBe(true);
    unlinkSync(path.join(root, 'dist', '.server-source-hash'));
    expect(build()).toBe(true);
    expect(ensureServerBuilt({ root, compile: fakeTsc, force: true })).toBe(true);
    expect(compiled).toBe(4);
  });

  it('writes no stamp when the compiler fails, so the next start compiles again', () => {
    expect(() =>
      ensureServerBuilt({
        root,
        compile: () => {
          throw new Error('tsc exited with 2');
        },
      }),
    ).toThrow('tsc exited with 2');
    expect(existsSync(path.join(root, 'dist', '.server-source-hash'))).toBe(false);
    expect(build()).toBe(true);
  });

  it('stamps the hash of the sources as they were when the compile began', () => {
    // A file saved while tsc runs: the stamp names the older content, so the next start compiles.
    const hashBefore = serverSourceHash(root);
    ensureServerBuilt({
      root,
      compile: (at) => {
        fakeTsc(at);
        write('src/app.ts', 'export const app = 3;');
      },
    });
    expect(readFileSync(path.join(root, 'dist', '.server-source-hash'), 'utf8').trim()).toBe(hashBefore);
    expect(build()).toBe(true);
  });

  it('runs the real TypeScript compiler when it compiles, and not when nothing changed', () => {
    write('tsconfig.build.json', '{"compilerOptions":{"module":"NodeNext","target":"ES2022","rootDir":"src","outDir":"dist","types":[]},"include":["src"]}');
    write('src/types.d.ts', 'export {};');
    expect(ensureServerBuilt({ root })).toBe(true);
    expect(readFileSync(path.join(root, 'dist', 'app.js'), 'utf8')).toContain('export const app = 1;');
    // Nothing changed: tsc does not run, so an output it would rewrite stays as it is.
    writeFileSync(path.join(root, 'dist', 'app.js'), '// left alone');
    expect(ensureServerBuilt({ root })).toBe(false);
    expect(readFileSync(path.join(root, 'dist', 'app.js'), 'utf8')).toBe('// left alone');
    // (That a change compiles again is shown above with a stand-in; one real compile is enough.)
  }, 60_000);
});
