import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectPath } from '../../src/shared/paths.js';

/** scripts/node24.sh (docs/architecture.md#node-and-dependencies), without fetching anything. */
describe('scripts/node24.sh', () => {
  let dir: string;
  const pinned = /^NODE_VERSION=(\S+)$/m.exec(readFileSync(projectPath('scripts', 'node24.sh'), 'utf8'))?.[1];

  /** An executable shell script at `file` that prints `text` (or exits 99 when text is null). */
  const fake = (file: string, text: string | null) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text === null ? '#!/bin/sh\necho "must not run" >&2\nexit 99\n' : `#!/bin/sh\necho ${text}\n`);
    chmodSync(file, 0o755);
  };
  const run = () =>
    spawnSync('bash', [projectPath('scripts', 'node24.sh')], {
      // npm on PATH fails: the script must not fetch when the pinned node is already there.
      env: { ...process.env, NODE24_DIR: path.join(dir, 'node'), PATH: `${path.join(dir, 'tools')}:${process.env.PATH}` },
      encoding: 'utf8',
    });

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'deskbook-node24-'));
    fake(path.join(dir, 'tools', 'npm'), null);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('pins a Node 24 release, the one the README names', () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(readFileSync(projectPath('README.md'), 'utf8')).toContain(`tested on ${pinned}`);
  });

  it('prints only the PATH line, and fetches nothing, when the pinned node is already installed', () => {
    fake(path.join(dir, 'node', 'bin', 'node'), `v${pinned}`);
    const result = run();
    expect(result.stderr).toContain('already');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`export PATH="${path.join(dir, 'node', 'bin')}:$PATH"\n`);
  });

  it.runIf(process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch))(
    'fetches when another version is there (here: fails, because npm is not reachable), and prints no PATH line',
    () => {
      fake(path.join(dir, 'node', 'bin', 'node'), 'v20.20.2');
      const result = run();
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(`fetching node-linux-`);
      expect(result.stdout).toBe('');
    },
  );
});
