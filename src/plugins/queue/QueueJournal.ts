import { promises as fs } from 'node:fs';
import { WalDirectory } from '../../storage/wal/WalDirectory';
import { WalFrameCodec } from '../../storage/wal/WalFrameCodec';
import { WalReader } from '../../storage/wal/WalReader';
import { WalWriter } from '../../storage/wal/WalWriter';
import { JournalCodec } from './JournalCodec';
import { JOURNAL_FORMAT_VERSION, type JournalRecord } from './JournalRecord';
import { messageOf } from '../../util/Errors';
import { makeDirectoryDurably } from '../../util/DurableFiles';

/** What compaction asks the queue for. */
export interface CompactionSource {
  /** Approximate size of a journal holding only the live records. */
  liveBytes: () => number;
  /**
   * Payloads of the records that rebuild the queue's current state, including the effects
   * of every record appended so far (written or not), which they replace.
   */
  snapshot: () => string[];
}

export interface QueueJournalOptions {
  /** No compaction below this journal size. */
  compactMinBytes: number;
  /** Compaction once the journal is this many times the live size. */
  compactRatio: number;
  /** Records appended with appendLazy() are written at the latest this long after. */
  lazyFlushMs: number;
}

export interface OpenedJournal {
  journal: QueueJournal;
  /** Records to replay, header excluded. */
  records: JournalRecord[];
}

const FRAMES = new WalFrameCodec();

/**
 * The journal of one local queue: `journal-<n>.log` in the queue's directory, a write-ahead
 * log (WalWriter) whose first record is a header naming the queue and the format version.
 *
 * Durable appends (job added) wait for a sync shared with the appends that arrive alongside;
 * lazy appends (job started/completed/failed) are not waited for. Losing them to a crash
 * only makes a job run again, which at-least-once allows.
 *
 * Compaction rewrites the live state into `journal-<n+1>.log` (see WalWriter.rewrite()).
 * On open, the highest-numbered journal wins, so a crash at any point of a compaction
 * leaves either the old or the new journal authoritative, both complete.
 */
export class QueueJournal {
  private source: CompactionSource | undefined;
  /** Journal size below which compaction is not tried again after a failed one. */
  private compactionFloor = 0;
  private compactionCount = 0;
  private compaction: Promise<void> | undefined;
  private compactionCheckScheduled = false;
  private closed = false;

  private constructor(
    private readonly writer: WalWriter,
    private readonly queueName: string,
    private readonly options: QueueJournalOptions,
    private readonly warn: (message: string) => void,
  ) {}

  public static files(directory: string): WalDirectory {
    return new WalDirectory(directory, 'journal-', '.log');
  }

  /**
   * Opens the queue's journal in `directory` (created if need be), cutting off a torn
   * tail, and returns the records to replay.
   */
  public static async open(
    directory: string,
    queueName: string,
    options: QueueJournalOptions,
    warn: (message: string) => void,
  ): Promise<OpenedJournal> {
    await makeDirectoryDurably(directory);
    const files = QueueJournal.files(directory);
    const listing = await files.list();
    // Interrupted compactions: the journal each was to replace is still there.
    for (const temp of listing.temps) {
      await fs.rm(temp, { force: true });
    }
    const sequence = listing.sequences.at(-1) ?? 1;
    // A newer journal only appears, by rename, once complete and synced: older ones
    // are leftovers of a compaction that crashed before deleting them.
    for (const older of listing.sequences.slice(0, -1)) {
      await fs.rm(files.path(older), { force: true });
    }
    const records: JournalRecord[] = [];
    let position = 0;
    if (listing.sequences.length > 0) {
      position = await QueueJournal.recover(files, sequence, queueName, records, warn);
    }
    const writer = await WalWriter.open(files, sequence, position, {
      label: `Journal of queue ${queueName}`,
      lazyFlushMs: options.lazyFlushMs,
      codec: FRAMES,
      warn,
    });
    try {
      if (position === 0) {
        await writer.append(QueueJournal.header(queueName));
      }
    } catch (error: unknown) {
      await writer.close().catch((): void => undefined);
      throw error;
    }
    return { journal: new QueueJournal(writer, queueName, options, warn), records: records.slice(1) };
  }

  /** Reads journal `sequence` into `records` and cuts off its tail; returns where appends go. */
  private static async recover(
    files: WalDirectory,
    sequence: number,
    queueName: string,
    records: JournalRecord[],
    warn: (message: string) => void,
  ): Promise<number> {
    const path = files.path(sequence);
    const read = await new WalReader(FRAMES).read(path, (payload): boolean => {
      const record = JournalCodec.parse(payload);
      if (record) {
        records.push(record);
      }
      return record !== undefined;
    });
    const header = records[0];
    if (header === undefined) {
      // A crash before the header was synced: then the file holds at most a torn header
      // (or zeros), and nothing was ever acknowledged from it.
      const headerBytes = WalFrameCodec.frameBytes(Buffer.byteLength(QueueJournal.header(queueName)));
      if (read.fileLength > headerBytes && !read.tailIsZero) {
        throw new Error(`${path} starts with an unreadable record: the journal is damaged. ` +
          'Move it away to start the queue empty (its jobs are then lost)');
      }
      if (read.fileLength > 0) {
        await files.truncate(sequence, 0);
      }
      return 0;
    }
    if (header.t !== 'h' || header.v !== JOURNAL_FORMAT_VERSION) {
      throw new Error(`${path} is not a version ${JOURNAL_FORMAT_VERSION} queue journal (first record ${
        JSON.stringify(header).slice(0, 100)})`);
    }
    if (read.validLength < read.fileLength) {
      // Normally half an append cut by a crash; if it was damage in the middle of the
      // journal, the records after it are kept aside for an operator.
      const cutPath = read.tailIsZero ? undefined : `${path}.cut`;
      warn(`Queue ${queueName}: cut ${read.fileLength - read.validLength} bytes of torn or damaged tail off ${path}${
        cutPath ? ` (kept in ${cutPath})` : ''}`);
      await files.truncate(sequence, read.validLength, cutPath);
    }
    return read.validLength;
  }

  private static header(queueName: string): string {
    return JournalCodec.encode({ t: 'h', v: JOURNAL_FORMAT_VERSION, queue: queueName });
  }

  /** Bytes in the current journal file, counting records not yet written. */
  public get size(): number {
    return this.writer.bytesInCurrentLog;
  }

  /** Compactions done since open. */
  public get compactions(): number {
    return this.compactionCount;
  }

  public get failed(): Error | undefined {
    return this.writer.failed;
  }

  public setCompactionSource(source: CompactionSource): void {
    this.source = source;
  }

  /** Appends a record (see JournalCodec); resolves once it is on stable storage. */
  public append(payload: string): Promise<void> {
    const durable = this.writer.append(payload);
    this.scheduleCompactionCheck();
    return durable;
  }

  /** Appends a record without waiting for it; dropped once closed or failed. */
  public appendLazy(payload: string): void {
    this.writer.appendLazy(payload);
    this.scheduleCompactionCheck();
  }

  /** Resolves when everything appended so far is durable (or has failed). */
  public flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Compacts now (if there is a compaction source), whatever the sizes. */
  public async compact(): Promise<void> {
    while (this.compaction) {
      await this.compaction;
    }
    if (this.source) {
      await this.startCompaction(this.source);
    }
    await this.writer.flush();
  }

  public async close(): Promise<void> {
    this.closed = true;
    await this.writer.close();
  }

  private scheduleCompactionCheck(): void {
    if (this.compactionCheckScheduled || this.compaction || !this.source) {
      return;
    }
    this.compactionCheckScheduled = true;
    // At the end of the tick, not now: the queue updates its state right after appending,
    // and the snapshot must include the effects of every record it replaces.
    queueMicrotask((): void => {
      this.compactionCheckScheduled = false;
      const source = this.source;
      if (source && !this.compaction && !this.closed && !this.writer.failed && this.shouldCompact(source)) {
        this.startCompaction(source).catch((error: unknown): void => {
          this.compactionFloor = this.writer.bytesInCurrentLog + this.options.compactMinBytes;
          this.warn(`Queue ${this.queueName}: compaction failed, journal kept (${messageOf(error)})`);
        });
      }
    });
  }

  private shouldCompact(source: CompactionSource): boolean {
    const size = this.writer.bytesInCurrentLog;
    return size >= this.options.compactMinBytes && size >= this.compactionFloor &&
      size >= this.options.compactRatio * source.liveBytes();
  }

  private startCompaction(source: CompactionSource): Promise<void> {
    const done = this.writer.rewrite([ QueueJournal.header(this.queueName), ...source.snapshot() ]).then((): void => {
      this.compactionCount += 1;
      this.compactionFloor = 0;
    });
    const settled = done.then((): void => undefined, (): void => undefined).finally((): void => {
      if (this.compaction === settled) {
        this.compaction = undefined;
      }
    });
    this.compaction = settled;
    return done;
  }
}
