import { LRUCache } from 'lru-cache';

/**
 * Loads by key, once: the promise is kept (the `max` most recently used), so callers that ask at once
 * share one load and later ones get its result. A load that fails is forgotten: the next caller
 * tries again. For values that do not change once loaded (a posted activity, an account's key).
 */
export class SharedLoads<T extends NonNullable<unknown>> {
  private readonly loads: LRUCache<string, Promise<T>>;

  public constructor(private readonly load: (key: string) => Promise<T>, max: number) {
    this.loads = new LRUCache({ max });
  }

  public async get(key: string): Promise<T> {
    let loading = this.loads.get(key);
    if (!loading) {
      const started = this.load(key);
      loading = started;
      this.loads.set(key, started);
      started.catch((): void => {
        if (this.loads.get(key) === started) {
          this.loads.delete(key);
        }
      });
    }
    return loading;
  }
}
