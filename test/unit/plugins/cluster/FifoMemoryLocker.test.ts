import { GreedyReadWriteLocker, MemoryMapStorage } from '@solid/community-server';
import { FifoMemoryLocker } from '../../../../src/plugins/cluster/FifoMemoryLocker';

const A = { path: 'http://pod.example/a' };
const B = { path: 'http://pod.example/b' };

describe('FifoMemoryLocker', (): void => {
  it('lets one holder in at a time, and the waiters in the order they asked', async(): Promise<void> => {
    const locker = new FifoMemoryLocker();
    const order: string[] = [];
    await locker.acquire(A);
    const waiters = [ 'first', 'second', 'third' ].map(async(name): Promise<void> => {
      await locker.acquire(A);
      order.push(name);
      await new Promise((resolve): unknown => setImmediate(resolve));
      order.push(`${name} done`);
      await locker.release(A);
    });
    await new Promise((resolve): unknown => setImmediate(resolve));
    expect(order).toEqual([]);
    await locker.release(A);
    await Promise.all(waiters);
    expect(order).toEqual([ 'first', 'first done', 'second', 'second done', 'third', 'third done' ]);
    // Free again: taken at once.
    await locker.acquire(A);
    await locker.release(A);
  });

  it('keeps different resources apart', async(): Promise<void> => {
    const locker = new FifoMemoryLocker();
    await locker.acquire(A);
    await expect(locker.acquire(B)).resolves.toBeUndefined();
    await locker.release(B);
    await locker.release(A);
  });

  it('refuses to release what is not locked', async(): Promise<void> => {
    const locker = new FifoMemoryLocker();
    await expect(locker.release(A)).rejects.toThrow('not locked');
    await locker.acquire(A);
    await locker.release(A);
    await expect(locker.release(A)).rejects.toThrow('not locked');
  });

  it('serves CSS\'s read-write locker as configured: writers exclude each other, readers share', async(): Promise<void> => {
    const locker = new GreedyReadWriteLocker(new FifoMemoryLocker(), new MemoryMapStorage());
    const events: string[] = [];
    const write = async(name: string): Promise<void> => locker.withWriteLock(A, async(): Promise<void> => {
      events.push(`${name} in`);
      await new Promise((resolve): unknown => setTimeout(resolve, 5));
      events.push(`${name} out`);
    });
    await Promise.all([ write('w1'), write('w2') ]);
    expect(events).toEqual([ 'w1 in', 'w1 out', 'w2 in', 'w2 out' ]);
    let readers = 0;
    let most = 0;
    await Promise.all([ 1, 2, 3 ].map(async(): Promise<void> => locker.withReadLock(A, async(): Promise<void> => {
      readers += 1;
      most = Math.max(most, readers);
      await new Promise((resolve): unknown => setTimeout(resolve, 5));
      readers -= 1;
    })));
    expect(most).toBe(3);
  });
});
