import { readFileSync, readlinkSync } from 'node:fs';

/**
 * Who a process id names right now, as far as this machine lets us see (docs/deployment.md#the-embedded-postgresql).
 * A process id alone proves nothing: after a crash or a reboot the number may belong to any
 * other process. On Linux the kernel's start time of a process (field 22 of /proc/<pid>/stat)
 * tells a recycled id apart; elsewhere only "some process has that id" can be known.
 */
export interface ProcessIdentity {
  pid: number;
  /** Clock ticks since boot at which the process started (Linux), or undefined where unknown. */
  startTicks?: string;
}

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Start time and parent of a process from /proc (Linux only); undefined when it does not exist. */
function procStat(pid: number): { startTicks: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields count from its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), startTicks: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

const HAS_PROC = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

export function identityOf(pid: number): ProcessIdentity {
  return { pid, startTicks: procStat(pid)?.startTicks };
}

/** True while the process that `identity` described still runs (not a later one with the same id). */
export function stillRunning(identity: ProcessIdentity): boolean {
  if (!isAlive(identity.pid)) return false;
  if (!HAS_PROC || identity.startTicks === undefined) return true;
  return procStat(identity.pid)?.startTicks === identity.startTicks;
}

export function parentOf(pid: number): number | undefined {
  return procStat(pid)?.ppid;
}

/**
 * Whether `pid` is a PostgreSQL server working in `dataDir`: its executable is named postgres and
 * its working directory is the data folder (the postmaster changes into it at start). Answers
 * undefined where this cannot be seen (no /proc, or another user's process without the right to
 * look), so the caller decides how careful to be.
 */
export function isPostgresOf(pid: number, dataDir: string): boolean | undefined {
  if (!HAS_PROC) return undefined;
  if (!isAlive(pid)) return false;
  try {
    const exe = readlinkSync(`/proc/${pid}/exe`);
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return /(^|\/)postgres( \(deleted\))?$/.test(exe) && cwd === dataDir;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    return undefined;
  }
}
