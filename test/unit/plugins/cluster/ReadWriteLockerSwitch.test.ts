import type { ReadWriteLocker, ResourceIdentifier } from '@solid/community-server';
import { ReadWriteLockerSwitch } from '../../../../src/plugins/cluster/ReadWriteLockerSwitch';

/** A locker that records which one ran: stands in for the Redis and memory lockers. */
function namedLocker(name: string, calls: string[]): ReadWriteLocker {
  return {
    withReadLock: async<T>(identifier: ResourceIdentifier, whileLocked: () => T | Promise<T>): Promise<T> => {
      calls.push(`${name} read ${identifier.path}`);
      return whileLocked();
    },
    withWriteLock: async<T>(identifier: ResourceIdentifier, whileLocked: () => T | Promise<T>): Promise<T> => {
      calls.push(`${name} write ${identifier.path}`);
      return whileLocked();
    },
  };
}

describe('ReadWriteLockerSwitch', (): void => {
  it.each([
    [ 'redis://127.0.0.1:6379/2', 'redis' ],
    [ '', 'memory' ],
    [ '   ', 'memory' ],
  ])('with the Redis URL %j uses the %s locker, passing results through', async(url, expected): Promise<void> => {
    const calls: string[] = [];
    const locker = new ReadWriteLockerSwitch(url, namedLocker('redis', calls), namedLocker('memory', calls));
    expect(await locker.withWriteLock({ path: 'a' }, (): number => 1)).toBe(1);
    expect(await locker.withReadLock({ path: 'b' }, async(): Promise<number> => 2)).toBe(2);
    expect(calls).toEqual([ `${expected} write a`, `${expected} read b` ]);
  });
});
