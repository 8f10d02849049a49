import type { ReadWriteLocker, ResourceIdentifier } from '@solid/community-server';

/**
 * `work` under the write lock of `identifier`, the lock renewed every `renewMs` while the work runs.
 * CSS's expiring locker fails whatever holds a lock past its expiry (6 s) without renewing it, even
 * work that is only slow (a key pair made at start-up on a busy machine); the work still has to end,
 * as every store request does within its timeout. A locker that does not expire passes no renewal.
 */
export async function withRenewedWriteLock<T>(locker: ReadWriteLocker, identifier: ResourceIdentifier, work: () => Promise<T>,
  renewMs = 1_000): Promise<T> {
  return locker.withWriteLock(identifier, async(maintainLock?: () => void): Promise<T> => {
    const renewal = maintainLock ? setInterval(maintainLock, renewMs) : undefined;
    try {
      return await work();
    } finally {
      clearInterval(renewal);
    }
  });
}
