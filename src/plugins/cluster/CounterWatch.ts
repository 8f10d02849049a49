import type { ChangeCounter } from './ChangeCounter';

/**
 * A cache's view of a ChangeCounter: `moved()` reads the counter (one read serves every caller that
 * arrives while it is under way) and says whether it moved since the last read, in which case what
 * was cached may be stale; `bump()` moves it after a change made here. Without a counter nothing
 * ever moves: the cache then sees this node's own changes only.
 */
export class CounterWatch {
  private seen?: string;
  private pendingRead?: Promise<string>;

  public constructor(private readonly counter?: ChangeCounter) {}

  /** The value last read; undefined before the first read and after a bump. */
  public get value(): string | undefined {
    return this.seen;
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
    return true;
  }

  public async bump(): Promise<void> {
    await this.counter?.bump();
    this.seen = undefined;
  }
}
