import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DatabaseBreaker } from '../../../src/infrastructure/database-gate/breaker.js';

/**
 * The circuit breaker of docs/behaviour.md (Health and database outages) with a ping the test
 * controls: it opens only when a failed connection is confirmed by a failed ping, and closes by
 * itself once the ping answers again.
 */

const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const statementTimeout = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
const uniqueViolation = Object.assign(new Error('duplicate key'), { code: '23505' });

function harness() {
  let answering = true;
  let pings = 0;
  const lines: string[] = [];
  const log = { warn: (_: unknown, message: string) => lines.push(`warn ${message}`), info: (message: string) => lines.push(`info ${message}`) };
  const breaker = new DatabaseBreaker(
    async () => {
      pings++;
      if (!answering) throw refused;
    },
    log as never,
    { probeIntervalMs: 20, probeTimeoutMs: 200 },
  );
  return {
    breaker,
    lines,
    pings: () => pings,
    setAnswering: (value: boolean) => (answering = value),
  };
}

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

describe('the database circuit breaker', () => {
  it('stays closed when one connection failed but the database answers', async () => {
    const b = harness();
    b.breaker.observe(refused);
    await until(() => b.pings() === 1);
    await sleep(30);
    expect(b.breaker.available).toBe(true);
    expect(b.lines).toEqual([]);
    b.breaker.stop();
  });

  it('opens when the ping fails too, and closes by itself once the database answers', async () => {
    const b = harness();
    b.setAnswering(false);
    b.breaker.observe(refused);
    await until(() => !b.breaker.available);
    // Further failures while open change nothing; the background ping keeps asking.
    b.breaker.observe(refused);
    await until(() => b.pings() >= 3);
    expect(b.breaker.available).toBe(false);
    b.setAnswering(true);
    await until(() => b.breaker.available, 1000);
    expect(b.lines).toEqual(['warn the database cannot be reached: answering 503 until it answers again', 'info the database answers again']);
    const pings = b.pings();
    await sleep(100);
    expect(b.pings()).toBe(pings);
    b.breaker.stop();
  });

  it('never opens for a statement timeout or any other query error', async () => {
    const b = harness();
    b.setAnswering(false);
    for (const error of [statementTimeout, uniqueViolation, new Error('plain'), undefined, 'text']) b.breaker.observe(error);
    await sleep(50);
    expect(b.pings()).toBe(0);
    expect(b.breaker.available).toBe(true);
    b.breaker.stop();
  });

  it('answers a readiness check within its timeout, without opening for a merely slow database', async () => {
    const slow = new DatabaseBreaker(() => sleep(500), { warn: () => undefined, info: () => undefined } as never, {
      probeIntervalMs: 20,
      probeTimeoutMs: 1000,
    });
    const started = Date.now();
    expect(await slow.check(50)).toBe(false);
    expect(Date.now() - started).toBeLessThan(400);
    expect(slow.available).toBe(true);
    const b = harness();
    expect(await b.breaker.check()).toBe(true);
    b.setAnswering(false);
    expect(await b.breaker.check()).toBe(false);
    await until(() => !b.breaker.available);
    b.setAnswering(true);
    expect(await b.breaker.check()).toBe(true);
    expect(b.breaker.available).toBe(true);
    b.breaker.stop();
    slow.stop();
  });

  it('opens on a suspected stall only when its own probe gets no answer in time (docs/behaviour.md#health-and-database-outages)', async () => {
    const lines: string[] = [];
    const log = { warn: (_: unknown, message: string) => lines.push(`warn ${message}`), info: (message: string) => lines.push(`info ${message}`) };
    let probes = 0;
    let probeAnswers = false;
    const breaker = new DatabaseBreaker(
      async () => undefined,
      log as never,
      { probeIntervalMs: 20, probeTimeoutMs: 50 },
      () => {
        probes++;
        // A stalled database: the probe's connection never answers.
        return probeAnswers ? Promise.resolve() : new Promise(() => undefined);
      },
    );
    expect(breaker.canProbe).toBe(true);
    probeAnswers = true;
    breaker.suspect();
    expect(probes).toBe(1);
    // Answered: the breaker is closed (up) again, so the next stall is probed anew.
    await until(() => {
      breaker.suspect();
      return probes === 2;
    });
    expect(breaker.available).toBe(true);
    expect(lines).toEqual([]);
    probeAnswers = false;
    await until(() => {
      breaker.suspect();
      return !breaker.available;
    });
    expect(lines).toEqual(['warn the database cannot be reached: answering 503 until it answers again']);
    // The background ping (the pool's) answers: closed again.
    await until(() => breaker.available, 1000);
    breaker.stop();
    // Without a probe of its own nothing is suspected.
    const b = harness();
    expect(b.breaker.canProbe).toBe(false);
    b.breaker.suspect();
    expect(b.pings()).toBe(0);
    expect(b.breaker.available).toBe(true);
    b.breaker.stop();
  });

  it('stops asking once stopped', async () => {
    const b = harness();
    b.setAnswering(false);
    b.breaker.observe(refused);
    await until(() => !b.breaker.available);
    b.breaker.stop();
    const pings = b.pings();
    await sleep(100);
    expect(b.pings()).toBe(pings);
  });
});
