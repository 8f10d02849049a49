/** A job error as kept in the queue (dead letters, logs): its message, at most this long. */
const MAX_ERROR_LENGTH = 2000;

/** The message a failed job leaves behind, cut to MAX_ERROR_LENGTH characters. */
export function describeJobError(error: unknown): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}…` : message;
}

/**
 * How many of a queue's jobs are running, and a way to wait until none is: close() gives running
 * jobs a bounded time to finish. Shared by the local and the BullMQ queue.
 */
export class RunningJobs {
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  public get count(): number {
    return this.running;
  }

  public started(): void {
    this.running += 1;
  }

  public finished(): void {
    this.running -= 1;
    if (this.running === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const waiter of waiters) {
        waiter();
      }
    }
  }

  /** Resolves true once no job runs (at once if none does), false after `timeoutMs`. */
  public async waitForIdle(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) {
      return true;
    }
    return new Promise<boolean>((resolve): void => {
      const timer = setTimeout((): void => resolve(false), timeoutMs);
      this.idleWaiters.push((): void => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
