import type { FastifyBaseLogger } from 'fastify';

/**
 * One background job (docs/architecture.md#background-jobs): a name, how often it runs, and the
 * work. Modules define their jobs and hand them to the runner in the composition (src/app.ts);
 * this folder knows no module.
 *
 * Across processes, a job never does one piece of work twice because the work is claimed in the
 * database, not because only one process runs the job: the release of no-shows and the outbox
 * take their rows FOR UPDATE SKIP LOCKED (the outbox with a lease besides). A job whose whole run
 * should happen once per interval across every process (housekeeping) sets `oncePerInterval`: the
 * runner then claims the run first with one atomic statement on `job_slots` (src/infrastructure/jobs/slots.ts),
 * which works through PgBouncer in transaction mode, where a session's advisory lock would not.
 */
export interface Job<T = unknown> {
  name: string;
  /** Time between the end of one run and the start of the next; 0: never on a timer, only when asked (runNow). */
  intervalMs: number;
  /** Run once as soon as the runner starts (default: first after one interval). */
  runAtStart?: boolean;
  /** Claim each timed run in the database first: one process of all runs it per interval. */
  oncePerInterval?: boolean;
  /** The work; `signal` aborts when the runner stops (a long run should stop early, its state consistent). */
  run(signal: AbortSignal): Promise<T>;
}

/** Claims the timed run of a job for this process; answers false when another process has it. */
export type SlotClaim = (name: string, intervalMs: number) => Promise<boolean>;

interface JobState {
  job: Job;
  timer: NodeJS.Timeout | undefined;
  /** The run going on now, or the last one (each run waits for the one before: no overlap in a process). */
  tail: Promise<unknown>;
  /** Asked to run again as soon as the running run ends. */
  nudged: boolean;
}

/**
 * Runs every job on its interval, one run at a time per job in this process; a run that fails is
 * logged (`job failed`, with the job's name) and the job runs again at its next time. `stop()`
 * aborts, clears the timers and waits for the runs in flight (the SIGTERM drain of server.ts
 * closes the app, which stops the runner).
 */
export class JobRunner {
  private readonly jobs = new Map<string, JobState>();
  private readonly abort = new AbortController();
  private started = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly claimSlot?: SlotClaim,
  ) {}

  add<T>(job: Job<T>): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} is added twice`);
    if (job.oncePerInterval && !this.claimSlot) throw new Error(`job ${job.name} runs once per interval but the runner has no slot claim`);
    this.jobs.set(job.name, { job, timer: undefined, tail: Promise.resolve(), nudged: false });
    if (this.started) this.schedule(this.jobs.get(job.name)!, job.runAtStart ? 0 : job.intervalMs);
  }

  /** Schedules every job with an interval. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const state of this.jobs.values()) this.schedule(state, state.job.runAtStart ? 0 : state.job.intervalMs);
  }

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /**
   * Runs the job now, after its run in flight if any (never two at once in this process), and
   * answers what the run answered; a failure is thrown to the caller (and not logged). Once the
   * runner stopped, answers undefined without running. Skips no slot: for tests and for callers
   * that need the work done now (docs/testing.md#background-work).
   */
  async runNow<T>(name: string): Promise<T | undefined> {
    const state = this.state(name);
    if (this.stopped) return undefined;
    return (await this.exclusive(state, () => (this.stopped ? Promise.resolve(undefined) : state.job.run(this.abort.signal)))) as T | undefined;
  }

  /**
   * Asks a timed job to run as soon as possible (new work was queued: a password mail should not
   * wait for the next interval). Runs coalesce: many nudges during one run cause one more run. A
   * job without an interval is left alone (this process does not run it).
   */
  nudge(name: string): void {
    const state = this.state(name);
    if (!this.started || this.stopped || state.job.intervalMs === 0) return;
    if (state.timer === undefined) {
      // A timed run is in flight: it schedules the next one at once when it ends.
      state.nudged = true;
      return;
    }
    clearTimeout(state.timer);
    this.schedule(state, 0);
  }

  async stop(): Promise<void> {
    this.abort.abort();
    for (const state of this.jobs.values()) clearTimeout(state.timer);
    await Promise.all([...this.jobs.values()].map((state) => state.tail.catch(() => undefined)));
  }

  private state(name: string): JobState {
    const state = this.jobs.get(name);
    if (!state) throw new Error(`no job named ${name}`);
    return state;
  }

  private exclusive(state: JobState, work: () => Promise<unknown>): Promise<unknown> {
    const run = state.tail.catch(() => undefined).then(work);
    state.tail = run.catch(() => undefined);
    return run;
  }

  private schedule(state: JobState, delayMs: number): void {
    if (this.stopped || state.job.intervalMs === 0) return;
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void this.exclusive(state, () => this.timedRun(state))
        .catch((error: unknown) => this.log.warn({ err: error, job: state.job.name }, 'job failed'))
        .finally(() => {
          const again = state.nudged;
          state.nudged = false;
          if (state.timer === undefined) this.schedule(state, again ? 0 : state.job.intervalMs);
        });
    }, delayMs);
    state.timer.unref();
  }

  private async timedRun(state: JobState): Promise<unknown> {
    const { job } = state;
    if (this.stopped) return undefined;
    if (job.oncePerInterval && !(await this.claimSlot!(job.name, job.intervalMs))) return undefined;
    const started = performance.now();
    const result = await job.run(this.abort.signal);
    this.log.debug({ job: job.name, ms: Math.round(performance.now() - started) }, 'job ran');
    return result;
  }
}
