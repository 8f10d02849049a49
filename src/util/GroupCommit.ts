interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions<T> {
  /** Most items in one group. */
  maxItems?: number;
  /** Most total weight (e.g. bytes) in one group; a single heavier item still goes, alone. */
  maxWeight?: number;
  weigh?: (item: T) => number;
  /** Errors after which the items are not tried again one by one (the target is away, not refusing one item). */
  failsAll?: (error: unknown) => boolean;
}

/**
 * A group commit: the items asked for while a group is being written (or in the same turn of the
 * event loop) are written together by one call of `write`. Many small writers then cost one round
 * trip per group instead of one each, and groups grow by themselves when the target is slow; a lone
 * writer waits for no one. Each item's promise settles once its group is written. When a group
 * fails, its items are written again one by one, so a bad item fails alone, unless `failsAll` says
 * the failure is the target's (then every item of the group gets the error).
 */
export class GroupCommit<T> {
  private pending: Pending<T>[] = [];
  private scheduled = false;
  private writing = false;
  private readonly maxItems: number;
  private readonly maxWeight: number;
  private readonly weigh: (item: T) => number;
  private readonly failsAll: (error: unknown) => boolean;

  public constructor(private readonly write: (items: T[]) => Promise<void>, options: GroupCommitOptions<T> = {}) {
    this.maxItems = options.maxItems ?? 128;
    this.maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.weigh = options.weigh ?? ((): number => 1);
    this.failsAll = options.failsAll ?? ((): boolean => false);
  }

  public async add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject): void => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing) {
      return;
    }
    this.scheduled = true;
    // After this turn's I/O callbacks: every item asked for in it joins the group.
    setImmediate((): void => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private takeGroup(): Pending<T>[] {
    let weight = 0;
    let count = 0;
    while (count < this.pending.length && count < this.maxItems) {
      weight += this.weigh(this.pending[count].item);
      if (count > 0 && weight > this.maxWeight) {
        break;
      }
      count += 1;
    }
    return this.pending.splice(0, count);
  }

  private async flush(): Promise<void> {
    const group = this.takeGroup();
    if (group.length === 0) {
      return;
    }
    this.writing = true;
    try {
      await this.write(group.map((pending): T => pending.item));
      for (const pending of group) {
        pending.resolve();
      }
    } catch (error: unknown) {
      if (group.length === 1 || this.failsAll(error)) {
        for (const pending of group) {
          pending.reject(error);
        }
      } else {
        await Promise.all(group.map(async(pending): Promise<void> =>
          this.write([ pending.item ]).then(pending.resolve, pending.reject)));
      }
    } finally {
      this.writing = false;
      if (this.pending.length > 0) {
        this.schedule();
      }
    }
  }
}
