/**
 * One read shared by everyone who asks in the same turn of the event loop, made after them all (in
 * setImmediate), so each caller still sees every change completed before it asked. For a value read
 * on every request and changed rarely (a change counter): under load, one read per turn instead of
 * one per request.
 */
export class TurnSharedRead<T> {
  /** The read the callers of this turn will share (not started yet). */
  private next: Promise<T> | undefined;

  public constructor(private readonly read: () => Promise<T>) {}

  public async get(): Promise<T> {
    if (!this.next) {
      this.next = new Promise<T>((resolve, reject): void => {
        setImmediate((): void => {
          this.next = undefined;
          this.read().then(resolve, reject);
        });
      });
    }
    return this.next;
  }
}
