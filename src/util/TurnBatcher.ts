/**
 * Collects what is sent while the current callback and the promise jobs it starts run, and hands it
 * on as one batch once they are done (a microtask that queues a process.nextTick: ticks queued while
 * the microtasks drain run after them). What would have been many messages to another thread becomes
 * one, without waiting for the next turn of the event loop. Each message between threads costs a
 * wake-up and a serialisation whatever its size; a busy inbox sent the embedded store thousands of
 * small queries a second, one message each.
 * (Batching until the end of the turn, setImmediate, took fewer messages still but made each of a
 * job's store round trips wait for all the I/O of the turn: fewer activities processed a second.)
 */
export class TurnBatcher<T> {
  private items: T[] = [];
  private scheduled = false;

  public constructor(private readonly send: (items: T[]) => void) {}

  public add(item: T): void {
    this.items.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask((): void => process.nextTick((): void => this.flush()));
    }
  }

  /** Sends what is collected now (also called before anything that must follow it, such as a stop). */
  public flush(): void {
    this.scheduled = false;
    if (this.items.length === 0) {
      return;
    }
    const items = this.items;
    this.items = [];
    this.send(items);
  }
}
