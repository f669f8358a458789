import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { identityOf, stillRunning, type ProcessIdentity } from './process-identity.js';

/**
 * One Deskbook process owns a DATA_DIR's embedded PostgreSQL at a time
 * (docs/deployment.md#the-embedded-postgresql). The owner writes `deskbook.lock` in DATA_DIR
 * naming itself; another process finds it, proves the owner still runs (the same process, not a
 * recycled id), and either stops (a second server) or uses the owner's running database (seed).
 * A lock whose owner is gone (SIGKILL, power cut) is taken over.
 */
export interface LockOwner extends ProcessIdentity {
  /** What the owner is: the command line that started it. */
  command: string;
  since: string;
  /** Where its PostgreSQL listens (a Unix socket directory). */
  socketDir: string;
}

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Deskbook process (pid ${owner.pid}, "${owner.command}", running since ${owner.since}). ` +
        'Stop that process first, or give this one another DATA_DIR.',
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

export const LOCK_FILE = 'deskbook.lock';

function readLockOwner(dataDir: string): LockOwner | undefined {
  const owner = readOwnerFile(path.join(dataDir, LOCK_FILE));
  return typeof owner?.pid === 'number' ? owner : undefined;
}

/** The live owner of `dataDir`'s lock, if any (this process too, when it holds it). */
export function liveOwner(dataDir: string): LockOwner | undefined {
  const owner = readLockOwner(dataDir);
  return owner && stillRunning(owner) ? owner : undefined;
}

/**
 * Takes the lock or throws DataDirInUseError. The new lock is written beside and then hard-linked
 * into place, which fails when a lock file exists: two processes starting together cannot both
 * win. A stale lock is first renamed away (only one of two racing processes can rename it) and
 * checked once more after the rename, so a lock taken meanwhile by a live process is put back.
 */
export function acquireDataDirLock(dataDir: string, socketDir: string): DataDirLock {
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockOwner = {
    ...identityOf(process.pid),
    command: process.argv
      .slice(1)
      .map((part) => path.basename(part))
      .join(' ')
      .slice(0, 200),
    since: new Date().toISOString(),
    socketDir,
  };
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${JSON.stringify(me)}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, file);
        return { file, release: () => releaseIfMine(file, me) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = readLockOwner(dataDir);
      if (owner && stillRunning(owner)) throw new DataDirInUseError(dataDir, owner);
      const stale = `${file}.stale.${randomBytes(4).toString('hex')}`;
      try {
        renameSync(file, stale);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // another process took it away first
        throw error;
      }
      const taken = readOwnerFile(stale);
      if (taken && stillRunning(taken)) {
        // Not the stale lock we saw: a live process locked meanwhile. Give it back.
        try {
          linkSync(stale, file);
        } finally {
          unlinkSync(stale);
        }
        throw new DataDirInUseError(dataDir, taken);
      }
      unlinkSync(stale);
    }
    const owner = readLockOwner(dataDir);
    if (owner) throw new DataDirInUseError(dataDir, owner);
    throw new Error(`could not lock ${file}`);
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // already gone
    }
  }
}

function readOwnerFile(file: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

function releaseIfMine(file: string, me: LockOwner): void {
  const owner = readOwnerFile(file);
  if (owner?.pid === me.pid && owner.startTicks === me.startTicks && owner.since === me.since) {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}
