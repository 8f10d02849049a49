/**
 * RedisReadWriteLocker and RedisChangeCounter on the run's redis-server: two instances stand for two
 * nodes (each has its own connection), so what one holds the other must see.
 */
import { claimRedisDb } from '../../support/env';
import { RedisChangeCounter } from '../../../src/plugins/cluster/RedisChangeCounter';
import { RedisReadWriteLocker } from '../../../src/plugins/cluster/RedisReadWriteLocker';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done): void => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('RedisReadWriteLocker across nodes', () => {
  let redisUrl: string;
  const lockers: RedisReadWriteLocker[] = [];

  function node(leaseMs = 30_000, maxWaitMs = 60_000): RedisReadWriteLocker {
    const locker = new RedisReadWriteLocker(redisUrl, leaseMs, maxWaitMs);
    lockers.push(locker);
    return locker;
  }

  beforeAll(() => {
    redisUrl = claimRedisDb();
  });

  afterAll(async() => {
    await Promise.all(lockers.map(async(locker) => locker.finalize()));
  });

  it('never lets two writers of one resource overlap, whichever node they run on', async() => {
    const nodes = [ node(), node() ];
    let inside = 0;
    let most = 0;
    let counter = 0;
    await Promise.all(Array.from({ length: 40 }, async(_unused, index) => nodes[index % 2].withWriteLock({ path: 'https://pod.example/c/x' },
      async() => {
        inside += 1;
        most = Math.max(most, inside);
        // A read-modify-write that loses updates unless the lock excludes the others.
        const seen = counter;
        await new Promise((resolve) => setImmediate(resolve));
        counter = seen + 1;
        inside -= 1;
      })));
    expect(most).toBe(1);
    expect(counter).toBe(40);
  });

  it('lets readers share, keeps a writer out while they read, and readers out while it writes', async() => {
    const [ a, b ] = [ node(), node() ];
    const path = { path: 'https://pod.example/c/y' };
    const release = deferred();
    const bothReading = deferred();
    let readers = 0;
    const read = async(): Promise<void> => {
      readers += 1;
      if (readers === 2) bothReading.resolve();
      await release.promise;
    };
    const reads = [ a.withReadLock(path, read), b.withReadLock(path, read) ];
    await bothReading.promise;
    const events: string[] = [];
    const write = a.withWriteLock(path, async() => {
      events.push('write');
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    events.push('readers done');
    release.resolve();
    await Promise.all([ ...reads, write ]);
    expect(events).toEqual([ 'readers done', 'write' ]);
  });

  it('frees the lock of a node that died holding it once its lease is over, and a late release frees nothing', async() => {
    const dead = node(300);
    const alive = node(300);
    const path = { path: 'https://pod.example/c/z' };
    const hold = deferred();
    const entered = deferred();
    // The "dead" node holds the lock and stops renewing it: its connection goes, as with a kill -9.
    const held = dead.withWriteLock(path, async() => {
      entered.resolve();
      await hold.promise;
    });
    await entered.promise;
    await dead.finalize();
    let ran = false;
    await alive.withWriteLock(path, async() => {
      ran = true;
      // The dead node's release (its work ending now) must not free the lock held here.
      hold.resolve();
      await held.catch(() => undefined);
      const third = node(300, 200);
      await expect(third.withWriteLock(path, async() => undefined)).rejects.toThrow('Timed out');
    });
    expect(ran).toBe(true);
  });

  it('counts changes for every node', async() => {
    const a = new RedisChangeCounter(redisUrl, 'test-changes');
    const b = new RedisChangeCounter(redisUrl, 'test-changes');
    try {
      const before = await b.read();
      await a.bump();
      const after = await b.read();
      expect(after).not.toBe(before);
      expect(await a.read()).toBe(after);
    } finally {
      await a.finalize();
      await b.finalize();
    }
  });

  it('shares one GET among the reads of a turn, and every read sees a bump done before it was asked', async() => {
    const a = new RedisChangeCounter(redisUrl, 'test-shared-reads');
    const b = new RedisChangeCounter(redisUrl, 'test-shared-reads');
    try {
      await a.bump();
      // The connection is private: spy on the GETs it sends.
      const connection = (b as unknown as { connection: () => { get: (key: string) => Promise<string | null> } }).connection();
      const gets = jest.spyOn(connection, 'get');
      const reads = await Promise.all(Array.from({ length: 50 }, async() => b.read()));
      expect(new Set(reads).size).toBe(1);
      expect(gets).toHaveBeenCalledTimes(1);
      for (let round = 0; round < 20; round++) {
        const before = await b.read();
        await a.bump();
        // Asked after the bump answered: must not share a GET sent before it.
        expect(await b.read()).not.toBe(before);
      }
    } finally {
      await a.finalize();
      await b.finalize();
    }
  });
});
