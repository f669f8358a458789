import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { JobRunner, type Job } from '../../../src/infrastructure/jobs/runner.js';

/** The one job runner (docs/architecture.md#background-jobs): no overlap, errors logged, stop waits. */

/** A promise and its resolve, to hold a job's run open until the test lets it end. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A logger whose lines the test reads. */
function recordingLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

const until = async (condition: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setImmediate(resolve));
  }
};

describe('JobRunner', () => {
  it('never runs one job twice at once: runNow waits for the timed run in flight', async () => {
    const { log } = recordingLog();
    const runner = new JobRunner(log);
    let running = 0;
    let most = 0;
    let runs = 0;
    const held = gate();
    const job: Job<number> = {
      name: 'counting',
      intervalMs: 1,
      runAtStart: true,
      async run() {
        running++;
        most = Math.max(most, running);
        runs++;
        if (runs === 1) await held.opened;
        running--;
        return runs;
      },
    };
    runner.add(job);
    runner.start();
    await until(() => runs === 1);
    const asked = runner.runNow<number>('counting');
    // The timed run is held open: the asked run has not started.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(1);
    held.open();
    expect(await asked).toBeGreaterThanOrEqual(2);
    await runner.stop();
    expect(most).toBe(1);
  });

  it('logs a failed run with the job’s name and runs the job again at its next time', async () => {
    const { log, lines } = recordingLog();
    const runner = new JobRunner(log);
    let runs = 0;
    runner.add({
      name: 'flaky',
      intervalMs: 5,
      runAtStart: true,
      async run() {
        runs++;
        if (runs === 1) throw new Error('first run fails');
      },
    });
    runner.start();
    await until(() => runs >= 3);
    await runner.stop();
    const failed = lines.filter((line) => line.msg === 'job failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ job: 'flaky', level: 40 });
    expect((failed[0]!.err as { message: string }).message).toBe('first run fails');
  });

  it('stop() aborts the signal and waits for the run in flight; nothing runs after it', async () => {
    const { log } = recordingLog();
    const runner = new JobRunner(log);
    const held = gate();
    let aborted = false;
    let finished = false;
    let runs = 0;
    runner.add({
      name: 'long',
      intervalMs: 1,
      runAtStart: true,
      async run(signal) {
        runs++;
        signal.addEventListener('abort', () => {
          aborted = true;
          held.open();
        });
        await held.opened;
        finished = true;
      },
    });
    runner.start();
    await until(() => runs === 1);
    await runner.stop();
    expect(aborted).toBe(true);
    expect(finished).toBe(true);
    expect(await runner.runNow('long')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(1);
  });

  it('a job without an interval runs only when asked; nudge() runs a timed job at once', async () => {
    const { log } = recordingLog();
    const runner = new JobRunner(log);
    let asked = 0;
    let timed = 0;
    runner.add({ name: 'on demand', intervalMs: 0, run: async () => ++asked });
    runner.add({ name: 'hourly', intervalMs: 3_600_000, run: async () => ++timed });
    runner.start();
    runner.nudge('on demand');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toBe(0);
    expect(await runner.runNow('on demand')).toBe(1);
    runner.nudge('hourly');
    await until(() => timed === 1);
    await runner.stop();
  });

  it('a job that runs once per interval runs only when its slot is claimed', async () => {
    const { log } = recordingLog();
    const claims: string[] = [];
    let granted = false;
    const runner = new JobRunner(log, async (name) => {
      claims.push(name);
      return granted;
    });
    let runs = 0;
    runner.add({ name: 'purge', intervalMs: 5, runAtStart: true, oncePerInterval: true, run: async () => void runs++ });
    runner.start();
    await until(() => claims.length >= 2);
    expect(runs).toBe(0);
    granted = true;
    await until(() => runs >= 1);
    await runner.stop();
    expect(() => new JobRunner(log).add({ name: 'x', intervalMs: 1, oncePerInterval: true, run: async () => {} })).toThrow(/slot/);
  });
});
