import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { lsnValue, ReplicaRouter } from '../../src/db/replica.js';
import { AppError } from '../../src/shared/errors.js';

/**
 * The routing rule of a read replica (docs/deployment.md#with-a-read-replica) on stand-in
 * databases: each answers its WAL position (or fails) when asked, and names itself when a read
 * runs on it. The end-to-end behaviour on a real standby is test/server/replica.test.ts.
 */

interface FakeDatabase {
  db: Database;
  lsn: string;
  failure?: Error;
}

function fakeDatabase(lsn: string): FakeDatabase {
  const fake: FakeDatabase = {
    lsn,
    db: {
      execute: async () => {
        if (fake.failure) throw fake.failure;
        return [{ lsn: fake.lsn }];
      },
    } as unknown as Database,
  };
  return fake;
}

const connectionRefused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const silent = { warn: () => {}, info: () => {} };

function router(options: { maxLagMs?: number } = {}) {
  let now = 1_000_000;
  const primary = fakeDatabase('0/100');
  const replica = fakeDatabase('0/100');
  const reads = new ReplicaRouter(
    primary.db,
    replica.db,
    silent,
    { maxLagMs: options.maxLagMs ?? 5000, refreshMs: 200, timeoutMs: 1000, restMs: 5000 },
    () => now,
  );
  const where = (db: Database) => Promise.resolve(db === primary.db ? 'primary' : 'replica');
  return { primary, replica, reads, where, advance: (ms: number) => (now += ms) };
}

describe('WAL positions', () => {
  it('compare as numbers, not as text', () => {
    expect(lsnValue('0/9') < lsnValue('0/10')).toBe(true);
    expect(lsnValue('0/FFFFFFFF') < lsnValue('1/0')).toBe(true);
    expect(lsnValue('A/0') < lsnValue('10/0')).toBe(true);
    expect(lsnValue('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(() => lsnValue('16-B374D848')).toThrow();
  });
});

describe('the read router', () => {
  it('reads the primary until it has read the replica once', async () => {
    const { reads, where } = router();
    expect(await reads.read(undefined, where)).toBe('primary');
    await reads.refresh();
    expect(await reads.read(undefined, where)).toBe('replica');
  });

  it("sends a caller to the primary until the replica has replayed past the caller's last write", async () => {
    const { reads, where, primary, replica } = router();
    await reads.refresh();
    expect(await reads.read('0/100', where)).toBe('replica');
    expect(await reads.read('0/101', where)).toBe('primary');
    expect(await reads.read(null, where)).toBe('replica');
    primary.lsn = '0/2000';
    replica.lsn = '0/1FFF';
    await reads.refresh();
    expect(await reads.read('0/2000', where)).toBe('primary');
    replica.lsn = '0/2000';
    await reads.refresh();
    expect(await reads.read('0/2000', where)).toBe('replica');
  });

  it('serves nobody once the replica is further behind than the bound, and again when it catches up', async () => {
    const { reads, where, primary, replica, advance } = router({ maxLagMs: 1000 });
    await reads.refresh();
    primary.lsn = '0/500';
    for (let i = 0; i < 4; i++) {
      advance(200);
      await reads.refresh();
    }
    // 800 ms since the last position it replayed past was read: within the bound.
    expect(await reads.read(undefined, where)).toBe('replica');
    advance(200);
    await reads.refresh();
    advance(1);
    expect(await reads.read(undefined, where)).toBe('primary');
    replica.lsn = '0/500';
    await reads.refresh();
    expect(await reads.read(undefined, where)).toBe('replica');
  });

  it('does not count an idle primary as lag', async () => {
    const { reads, where, advance } = router({ maxLagMs: 1000 });
    for (let i = 0; i < 20; i++) {
      advance(200);
      await reads.refresh();
    }
    expect(await reads.read(undefined, where)).toBe('replica');
  });

  it('runs a read the replica fails on the primary and rests the replica, but passes on other errors', async () => {
    const { reads, primary, replica, advance } = router();
    await reads.refresh();
    const tried: string[] = [];
    const failingOnReplica = async (db: Database) => {
      tried.push(db === primary.db ? 'primary' : 'replica');
      if (db === replica.db) throw connectionRefused();
      return 'answer';
    };
    expect(await reads.read(undefined, failingOnReplica)).toBe('answer');
    expect(tried).toEqual(['replica', 'primary']);
    // Resting: the replica is not asked, even though it answers its position again.
    advance(4000);
    await reads.refresh();
    expect(await reads.read(undefined, async (db) => (db === primary.db ? 'primary' : 'replica'))).toBe('primary');
    advance(1001);
    await reads.refresh();
    expect(await reads.read(undefined, async (db) => (db === primary.db ? 'primary' : 'replica'))).toBe('replica');

    const notFound = new AppError('NOT_FOUND', 'no such thing');
    await expect(
      reads.read(undefined, async () => {
        throw notFound;
      }),
    ).rejects.toBe(notFound);
  });

  it('rests the replica when its position cannot be read', async () => {
    const { reads, where, replica, advance } = router();
    await reads.refresh();
    replica.failure = connectionRefused();
    await reads.refresh();
    expect(await reads.read(undefined, where)).toBe('primary');
    replica.failure = undefined;
    advance(5001);
    await reads.refresh();
    expect(await reads.read(undefined, where)).toBe('replica');
  });
});
