interface HeapEntry<T> {
  readonly due: number;
  readonly order: number;
  readonly item: T;
}

/**
 * Min-heap of items by due time (ties in insertion order), so a queue with many
 * delayed jobs needs one timer, for the earliest, rather than one per job.
 */
export class DueTimeHeap<T> {
  private readonly entries: HeapEntry<T>[] = [];
  private inserted = 0;

  public get size(): number {
    return this.entries.length;
  }

  /** Due time of the earliest item, undefined when empty. */
  public peekDue(): number | undefined {
    return this.entries[0]?.due;
  }

  public push(due: number, item: T): void {
    this.entries.push({ due, order: this.inserted, item });
    this.inserted += 1;
    this.up(this.entries.length - 1);
  }

  /** Removes and returns every item due at or before `now`, earliest first. */
  public popDue(now: number): T[] {
    const due: T[] = [];
    while (this.entries.length > 0 && this.entries[0].due <= now) {
      due.push(this.pop());
    }
    return due;
  }

  public clear(): void {
    this.entries.length = 0;
  }

  private pop(): T {
    const top = this.entries[0];
    const last = this.entries.pop() as HeapEntry<T>;
    if (this.entries.length > 0) {
      this.entries[0] = last;
      this.down(0);
    }
    return top.item;
  }

  private less(left: HeapEntry<T>, right: HeapEntry<T>): boolean {
    return left.due < right.due || (left.due === right.due && left.order < right.order);
  }

  private up(index: number): void {
    const entries = this.entries;
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.less(entries[child], entries[parent])) {
        break;
      }
      [ entries[child], entries[parent] ] = [ entries[parent], entries[child] ];
      child = parent;
    }
  }

  private down(index: number): void {
    const entries = this.entries;
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < entries.length && this.less(entries[left], entries[smallest])) {
        smallest = left;
      }
      if (right < entries.length && this.less(entries[right], entries[smallest])) {
        smallest = right;
      }
      if (smallest === parent) {
        break;
      }
      [ entries[parent], entries[smallest] ] = [ entries[smallest], entries[parent] ];
      parent = smallest;
    }
  }
}
