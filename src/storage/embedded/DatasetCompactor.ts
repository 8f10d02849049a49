import type { Store } from 'oxigraph';
import type { DatasetFiles } from './DatasetFiles';
import type { EngineHealth } from './EngineHealth';
import { SnapshotDump } from './SnapshotDump';
import type { WalWriter } from '../wal/WalWriter';
import { messageOf } from '../../util/Errors';

/** When a dataset's current update log is folded into a new snapshot. */
export interface CompactionThresholds {
  /** Compact once the current log holds this many bytes. */
  readonly bytes: number;
  /**
   * Compact once the current log holds this many records. Replaying a record costs far more
   * than loading its quads from a snapshot (each one is a SPARQL update), so this is what
   * bounds the start-up after a crash. Default: no limit.
   */
  readonly records?: number;
  /**
   * At a clean close, compact when the current log holds at least this many bytes, so the
   * next start loads a snapshot and replays nothing. Default: never.
   */
  readonly atCloseBytes?: number;
}

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
  private readonly dumper = new SnapshotDump();
  private retryAfterBytes = 0;
  private retryAfterRecords = 0;

  /**
   * @param recordsInCurrentLog - records the current log already holds (replayed at start-up)
   * @param health - the engine's; once it has faulted, its store may hold a half-applied write
   *   and is never dumped (the next start rebuilds it from the snapshot and logs)
   */
  public constructor(
    private readonly store: Store,
    private readonly writer: WalWriter,
    private readonly files: DatasetFiles,
    private readonly thresholds: CompactionThresholds,
    private readonly warn: (message: string) => void,
    private recordsInCurrentLog = 0,
    private readonly health?: EngineHealth,
  ) {}

  /** Counts one appended record. */
  public recordAppended(): void {
    this.recordsInCurrentLog += 1;
  }

  /** Starts a background compaction when the current log has outgrown a threshold. */
  public maybeStart(): void {
    if (this.running || !this.due()) {
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

  /**
   * For a clean close, after the last write: compacts if the log is worth it (see
   * `atCloseBytes`). Never throws: the log still holds everything, so a failure only
   * costs the next start-up a replay.
   */
  public async compactAtClose(): Promise<void> {
    await this.whenIdle();
    const minimum = this.thresholds.atCloseBytes;
    if (minimum === undefined || this.health?.failed || this.writer.bytesInCurrentLog === 0 || this.writer.bytesInCurrentLog < minimum) {
      return;
    }
    try {
      await this.compact();
    } catch (error: unknown) {
      this.warn(`Compaction of ${this.files.directory} at close failed (the next start replays its log): ${messageOf(error)}`);
    }
  }

  public async whenIdle(): Promise<void> {
    await this.running;
  }

  private due(): boolean {
    const bytes = this.writer.bytesInCurrentLog;
    const records = this.recordsInCurrentLog;
    const byBytes = bytes >= this.thresholds.bytes && bytes >= this.retryAfterBytes;
    const byRecords = records >= (this.thresholds.records ?? Number.POSITIVE_INFINITY) && records >= this.retryAfterRecords;
    return byBytes || byRecords;
  }

  private async compactNow(): Promise<void> {
    this.health?.check();
    let dump: string[];
    try {
      // Blocks this thread for roughly a second per million quads; that is the price
      // of a consistent snapshot without a second copy of the store.
      dump = this.dumper.of(this.store);
    } catch (error: unknown) {
      // E.g. out of memory. Keep logging (still durable) and do not retry on every append.
      this.retryAfterBytes = this.writer.bytesInCurrentLog + this.thresholds.bytes;
      this.retryAfterRecords = this.recordsInCurrentLog + (this.thresholds.records ?? 0);
      throw error;
    }
    const rotation = this.writer.rotate();
    this.recordsInCurrentLog = 0;
    this.retryAfterBytes = 0;
    this.retryAfterRecords = 0;
    await this.files.writeSnapshot(rotation.coveredSequence, dump);
    await rotation.done;
    await this.files.removeCoveredBy(rotation.coveredSequence);
  }
}
