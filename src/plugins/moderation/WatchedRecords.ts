import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import type { ChangeCounter } from '../cluster/ChangeCounter';
import { CounterWatch } from '../cluster/CounterWatch';

/**
 * Moderation records (one JSON file per key under `<data-dir>/<folder>/`) held in memory, read again
 * whenever the shared `changes` counter moved: every read asks the counter first (one read serves
 * the reads that arrive meanwhile), so a change made on any node holds on every node at once. Writes
 * go through `write`, which moves the counter.
 */
export class WatchedRecords<TRecord> {
  private readonly storage: FileKeyValueStorage<TRecord>;
  private readonly changes: CounterWatch;
  private loaded?: Promise<Map<string, TRecord>>;

  public constructor(dataDir: string, folder: string, changes?: ChangeCounter) {
    this.storage = new FileKeyValueStorage(dataDir, folder);
    this.changes = new CounterWatch(changes);
  }

  /** Every record, by key. */
  public async all(): Promise<Map<string, TRecord>> {
    if (await this.changes.moved()) {
      this.loaded = undefined;
    }
    if (!this.loaded) {
      const generation = this.changes.generation;
      const loading = this.load();
      this.loaded = loading;
      const records = await loading.catch((error: unknown): never => {
        this.loaded = undefined;
        throw error;
      });
      // Read while a change was under way: answer with it, but read again next time.
      if (this.changes.generation !== generation && this.loaded === loading) {
        this.loaded = undefined;
      }
      return records;
    }
    return this.loaded;
  }

  /** Stores a record (or removes it: undefined) and tells the other nodes. */
  public async write(key: string, record: TRecord | undefined): Promise<void> {
    this.changes.changing();
    if (record === undefined) {
      await this.storage.delete(key);
    } else {
      await this.storage.set(key, record);
    }
    this.loaded = undefined;
    await this.changes.bump();
  }

  private async load(): Promise<Map<string, TRecord>> {
    const records = new Map<string, TRecord>();
    for await (const [ key, record ] of this.storage.entries()) {
      records.set(key, record);
    }
    return records;
  }
}
