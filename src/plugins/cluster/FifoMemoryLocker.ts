import type { ResourceIdentifier, ResourceLocker } from '@solid/community-server';
import { InternalServerError } from '@solid/community-server';

/**
 * Locks of one process, in memory, handed to waiters in the order they asked (the locks of
 * config/parts/backend/local.json). CSS's MemoryResourceLocker does the same through
 * async-lock, but counts every held lock (Object.keys) for a debug line on each acquire and release,
 * whether debug is on or not: with a busy inbox holding a hundred locks that was about 3% of the main
 * thread. Here a lock is one map entry, its waiters a queue.
 */
export class FifoMemoryLocker implements ResourceLocker {
  /** Held locks by path, each with the resolvers of those waiting for it, first come first. */
  private readonly held = new Map<string, (() => void)[]>();

  public async acquire({ path }: ResourceIdentifier): Promise<void> {
    const waiting = this.held.get(path);
    if (!waiting) {
      this.held.set(path, []);
      return;
    }
    return new Promise<void>((resolve): void => {
      waiting.push(resolve);
    });
  }

  public async release({ path }: ResourceIdentifier): Promise<void> {
    const waiting = this.held.get(path);
    if (!waiting) {
      throw new InternalServerError(`Trying to unlock resource that is not locked: ${path}`);
    }
    const next = waiting.shift();
    if (next) {
      // Handed over: the lock stays held, by the next waiter.
      next();
    } else {
      this.held.delete(path);
    }
  }
}
