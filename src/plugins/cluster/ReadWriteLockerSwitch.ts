import type { PromiseOrValue, ReadWriteLocker, ResourceIdentifier } from '@solid/community-server';

/**
 * The locker the deployment needs, chosen once from the Redis URL: with one, locks shared by every
 * node on that Redis (so several nodes on one store never interleave writes); without, locks in
 * this process's memory (one node). Components.js cannot choose by a variable's value, hence this.
 */
export class ReadWriteLockerSwitch implements ReadWriteLocker {
  private readonly locker: ReadWriteLocker;

  /**
   * @param redisUrl - The server's Redis URL; '' (or blanks) for none.
   * @param redisLocker - Used when there is a Redis URL.
   * @param memoryLocker - Used otherwise.
   */
  public constructor(redisUrl: string, redisLocker: ReadWriteLocker, memoryLocker: ReadWriteLocker) {
    this.locker = redisUrl.trim() === '' ? memoryLocker : redisLocker;
  }

  public async withReadLock<T>(identifier: ResourceIdentifier, whileLocked: () => PromiseOrValue<T>): Promise<T> {
    return this.locker.withReadLock(identifier, whileLocked);
  }

  public async withWriteLock<T>(identifier: ResourceIdentifier, whileLocked: () => PromiseOrValue<T>): Promise<T> {
    return this.locker.withWriteLock(identifier, whileLocked);
  }
}
