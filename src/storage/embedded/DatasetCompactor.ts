import type { DatasetFiles } from './DatasetFiles';
import type { EngineHealth } from './EngineHealth';
import type { LiveStore } from './LiveStore';
import { SnapshotDump } from './SnapshotDump';
import type { WalWriter } from '../wal/WalWriter';
import { messageOf } from '../../util/Errors';

const REBUILD_REPORT_MS = 60_000;

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
 *
 * Writes that removed quads also make a compaction due once the store should be rebuilt (see
 * LiveStore): the same dump then also becomes the new store, built meanwhile in memory only,
 * so the steps above and their crash safety stay as they are.
 */
export class DatasetCompactor {
  private running: Promise<void> | undefined;
  private readonly dumper = new SnapshotDump();
  private retryAfterBytes = 0;
  private retryAfterRecords = 0;
  /** Rebuilds are reported at most once a minute: under steady overwrites they come every few seconds. */
  private rebuildReport = { rebuilds: 0, longestPauseMs: 0, at: Number.NEGATIVE_INFINITY };

  /**
   * @param recordsInCurrentLog - records the current log already holds (replayed at start-up)
   * @param health - the engine's; once it has faulted, its store may hold a half-applied write
   *   and is never dumped (the next start rebuilds it from the snapshot and logs)
   * @param inform - told what each rebuild of the store cost; default: nobody
   */
  public constructor(
    private readonly live: LiveStore,
    private readonly writer: WalWriter,
    private readonly files: DatasetFiles,
    private readonly thresholds: CompactionThresholds,
    private readonly warn: (message: string) => void,
    private recordsInCurrentLog = 0,
    private readonly health?: EngineHealth,
    private readonly inform?: (message: string) => void,
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

  private async compactForClose(): Promise<void> {
    // Not worth rebuilding a store about to be dropped.
    this.running = this.compactNow(false).finally((): void => {
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
      await this.compactForClose();
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
    return byBytes || byRecords || this.live.rebuildDue();
  }

  private async compactNow(mayRebuild = true): Promise<void> {
    this.health?.check();
    const rebuild = mayRebuild && this.live.rebuildDue();
    let dump: string[];
    const dumpStart = performance.now();
    try {
      // Blocks this thread for roughly a second per million quads; that is the price
      // of a consistent snapshot without a second copy of the store.
      dump = this.dumper.of(this.live.store);
    } catch (error: unknown) {
      // E.g. out of memory. Keep logging (still durable) and do not retry on every append.
      this.retryAfterBytes = this.writer.bytesInCurrentLog + this.thresholds.bytes;
      this.retryAfterRecords = this.recordsInCurrentLog + (this.thresholds.records ?? 0);
      throw error;
    }
    const dumpMs = performance.now() - dumpStart;
    const rotation = this.writer.rotate();
    // In the dump's tick too: the store records the writes it must replay from here on.
    const rebuilt = rebuild ? this.rebuild(dump, dumpMs) : undefined;
    this.recordsInCurrentLog = 0;
    this.retryAfterBytes = 0;
    this.retryAfterRecords = 0;
    try {
      await this.files.writeSnapshot(rotation.coveredSequence, dump);
      await rotation.done;
      await this.files.removeCoveredBy(rotation.coveredSequence);
    } finally {
      await rebuilt;
    }
  }

  /** Never rejects: the old store stays in service if the new one cannot be built. */
  private async rebuild(dump: readonly string[], dumpMs: number): Promise<void> {
    const removals = this.live.removals;
    try {
      const report = await this.live.rebuildFrom(dump);
      const summary = this.rebuildReport;
      summary.rebuilds += 1;
      summary.longestPauseMs = Math.max(summary.longestPauseMs, dumpMs, report.longestSliceMs);
      if (performance.now() - summary.at >= REBUILD_REPORT_MS) {
        this.inform?.(`Dataset ${this.files.directory}: store rebuilt after ${removals} removing writes, ${report.quads} quads ` +
          `in ${Math.round(dumpMs + report.totalMs)} ms (dump ${Math.round(dumpMs)} ms, ${report.replayed} writes replayed); ` +
          `${summary.rebuilds} rebuilds since the last report, longest pause ${Math.round(summary.longestPauseMs)} ms`);
        this.rebuildReport = { rebuilds: 0, longestPauseMs: 0, at: performance.now() };
      }
    } catch (error: unknown) {
      this.warn(`Rebuild of the store of ${this.files.directory} failed (it goes on with the old one): ${messageOf(error)}`);
    }
  }
}
