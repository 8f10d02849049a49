import type { Store } from 'oxigraph';
import type { DatasetFiles } from './DatasetFiles';
import type { WalWriter } from '../wal/WalWriter';
import { messageOf } from '../../util/Errors';

/**
 * Folds the update logs into a fresh snapshot so boot time and disk use stay
 * bounded. Crash-safe at every step because the snapshot's file name records the
 * last log it covers (see DatasetFiles):
 *  1. dump the store and mark a log rotation in the same synchronous tick, so the
 *     dump equals "old snapshot + every record before the rotation";
 *  2. write snapshot.tmp, fsync, rename, fsync the directory (publishes it);
 *  3. once the old log is closed, delete it and the previous snapshot.
 * A crash before 2 completes leaves the old snapshot + all logs; after it, the new
 * snapshot and the leftover old files, which boot recognises as covered and deletes.
 */
export class DatasetCompactor {
  private running: Promise<void> | undefined;
  private retryAfterBytes = 0;

  public constructor(
    private readonly store: Store,
    private readonly writer: WalWriter,
    private readonly files: DatasetFiles,
    private readonly thresholdBytes: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** Starts a background compaction when the current log has outgrown the threshold. */
  public maybeStart(): void {
    const bytes = this.writer.bytesInCurrentLog;
    if (this.running || bytes < this.thresholdBytes || bytes < this.retryAfterBytes) {
      return;
    }
    // Deferred so the acknowledgement that triggered us goes out before the dump blocks.
    this.running = new Promise<void>((resolve): void => {
      setImmediate((): void => {
        this.compactNow().then(resolve, (error: unknown): void => {
          this.warn(`Compaction of ${this.files.directory} failed: ${messageOf(error)}`);
          resolve();
        });
      });
    }).finally((): void => {
      this.running = undefined;
    });
  }

  /** Compacts now (or waits for the compaction already under way). */
  public async compact(): Promise<void> {
    if (this.running) {
      await this.running;
      return;
    }
    this.running = this.compactNow().finally((): void => {
      this.running = undefined;
    });
    await this.running;
  }

  public async whenIdle(): Promise<void> {
    await this.running;
  }

  private async compactNow(): Promise<void> {
    let dump: string;
    try {
      // Blocks this thread for roughly a second per million quads; that is the price
      // of a consistent snapshot without a second copy of the store.
      dump = this.store.dump({ format: 'application/n-quads' });
    } catch (error: unknown) {
      // E.g. the dump exceeds the maximum JS string length. Keep logging (still
      // durable) and do not retry on every append.
      this.retryAfterBytes = this.writer.bytesInCurrentLog + this.thresholdBytes;
      throw error;
    }
    const rotation = this.writer.rotate();
    this.retryAfterBytes = 0;
    await this.files.writeSnapshot(rotation.coveredSequence, dump);
    await rotation.done;
    await this.files.removeCoveredBy(rotation.coveredSequence);
  }
}
