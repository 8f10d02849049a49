import type { ChangeCounter } from './ChangeCounter';

/**
 * A cache's view of a ChangeCounter: `moved()` reads the counter (one read serves every caller that
 * arrives while it is under way) and says whether it moved since the last read, in which case what
 * was cached may be stale; `bump()` moves it after a change made here. Without a counter nothing
 * ever moves: the cache then sees this node's own changes only.
 *
 * `generation` counts the changes this watch learnt of (a move read, a bump, `changing()`): an
 * answer read while it grew may predate the change and is not to be kept, counter or not.
 */
export class CounterWatch {
  private seen?: string;
  private pendingRead?: Promise<string>;
  private changes = 0;

  public constructor(private readonly counter?: ChangeCounter) {}

  /** The value last read; undefined before the first read and after a bump. */
  public get value(): string | undefined {
    return this.seen;
  }

  /** Grows with every change learnt of: compare it before and after a read to keep the answer. */
  public get generation(): number {
    return this.changes;
  }

  /** A change here is starting: answers being read now may miss it. */
  public changing(): void {
    this.changes += 1;
  }

  public async moved(): Promise<boolean> {
    if (!this.counter) {
      return false;
    }
    this.pendingRead ??= this.counter.read().finally((): void => {
      this.pendingRead = undefined;
    });
    const value = await this.pendingRead;
    if (value === this.seen) {
      return false;
    }
    this.seen = value;
    this.changes += 1;
    return true;
  }

  public async bump(): Promise<void> {
    this.changes += 1;
    await this.counter?.bump();
    this.seen = undefined;
  }
}
