/**
 * One running task per key: a caller asking for a key whose task still runs gets that task's
 * promise instead of starting a second one (a cache filling, an index being built).
 */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  public run(key: string, task: () => Promise<T>): Promise<T> {
    let pending = this.running.get(key);
    if (!pending) {
      pending = task().finally((): void => {
        this.running.delete(key);
      });
      this.running.set(key, pending);
    }
    return pending;
  }
}
