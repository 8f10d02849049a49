import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { JournalCodec } from './JournalCodec';
import { JOURNAL_FORMAT_VERSION, type JournalRecord } from './JournalRecord';

const JOURNAL = /^journal-(\d{12})\.log$/u;
const TEMP_SUFFIX = '.tmp';
/** Compaction writes the new file in pieces of about this size. */
const WRITE_CHUNK_BYTES = 4 * 1024 * 1024;

/** What compaction asks the queue for. */
export interface CompactionSource {
  /** Approximate size of a journal holding only the live records. */
  liveBytes: () => number;
  /**
   * Framed records that rebuild the queue's current state, including the effects of
   * every record appended so far (written or not). Called synchronously with the
   * handover of the pending appends, which the snapshot then replaces.
   */
  snapshot: () => Buffer[];
}

export interface JournalWriterOptions {
  /** No compaction below this journal size. */
  compactMinBytes: number;
  /** Compaction once the journal is this many times the live size. */
  compactRatio: number;
  /** Records appended with appendLazy() are written at the latest this long after. */
  lazyFlushMs: number;
}

export interface OpenedJournal {
  writer: JournalWriter;
  /** Records to replay, header excluded. */
  records: JournalRecord[];
  /** Bytes of torn or corrupt tail cut off. */
  cutBytes: number;
}

interface Entry {
  readonly record: Buffer;
  readonly resolve?: () => void;
  readonly reject?: (error: Error) => void;
}

/**
 * The append-only journal of one local queue, with group commit: every durable
 * append waits for an fdatasync, and all appends that arrive while a sync is in
 * flight share the next one, so throughput grows with the number of concurrent
 * producers instead of being capped by the disk's sync latency.
 *
 * Lazy appends (job started/completed/failed) are not waited for: they ride along
 * with the next sync, or are flushed within `lazyFlushMs`. Losing them to a crash
 * only makes a job run again, which at-least-once allows.
 *
 * Compaction rewrites the live state into `journal-<n+1>.log.tmp`, fsyncs it, renames
 * it into place and fsyncs the directory; only then is `journal-<n>.log` deleted. On
 * open, the highest-numbered journal wins, so a crash at any point of a compaction
 * leaves either the old or the new journal authoritative, both complete.
 *
 * After an I/O error on the current journal the writer refuses all further appends:
 * the queue may then hold jobs that are not on disk, and acknowledging more would
 * be a lie.
 */
export class JournalWriter {
  private queue: Entry[] = [];
  private queuedBytes = 0;
  private draining = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private failure: Error | undefined;
  private idleWaiters: (() => void)[] = [];
  private source: CompactionSource | undefined;
  /** Journal size below which compaction is not tried again after a failed one. */
  private compactionFloor = 0;
  private compactionCount = 0;

  private constructor(
    private readonly directory: string,
    private readonly queueName: string,
    private readonly options: JournalWriterOptions,
    private readonly warn: (message: string) => void,
    private handle: fs.FileHandle,
    private sequence: number,
    private position: number,
  ) {}

  public static journalPath(directory: string, sequence: number): string {
    return join(directory, `journal-${String(sequence).padStart(12, '0')}.log`);
  }

  /**
   * Opens the queue's journal in `directory` (created if need be), cutting off a torn
   * tail, and returns the records to replay.
   */
  public static async open(
    directory: string,
    queueName: string,
    options: JournalWriterOptions,
    warn: (message: string) => void,
  ): Promise<OpenedJournal> {
    await fs.mkdir(directory, { recursive: true });
    const sequences: number[] = [];
    for (const name of await fs.readdir(directory)) {
      const match = JOURNAL.exec(name);
      if (match) {
        sequences.push(Number(match[1]));
      } else if (name.endsWith(TEMP_SUFFIX)) {
        // An interrupted compaction: the journal it was to replace is still there.
        await fs.rm(join(directory, name), { force: true });
      }
    }
    sequences.sort((left, right): number => right - left);
    const sequence = sequences[0] ?? 1;
    // A newer journal only appears, by rename, once complete and synced: older ones
    // are leftovers of a compaction that crashed before deleting them.
    for (const older of sequences.slice(1)) {
      await fs.rm(JournalWriter.journalPath(directory, older), { force: true });
    }
    const path = JournalWriter.journalPath(directory, sequence);
    const created = sequences.length === 0;
    const handle = await fs.open(path, created ? 'wx+' : 'r+');
    try {
      const buffer = created ? Buffer.alloc(0) : await handle.readFile();
      const { records, consumed } = JournalCodec.decode(buffer);
      const header = records[0];
      let position = consumed;
      if (header === undefined) {
        // New, or a crash before the header was synced: then the file holds at most a
        // torn header (or zeros), and nothing was ever acknowledged from it.
        const headerFrame = JournalWriter.headerFrame(queueName);
        if (buffer.length > headerFrame.length && buffer.some((byte): boolean => byte !== 0)) {
          throw new Error(`${path} starts with an unreadable record: the journal is damaged. ` +
            'Move it away to start the queue empty (its jobs are then lost)');
        }
        await handle.truncate(0);
        await JournalWriter.writeFully(handle, headerFrame, 0);
        await handle.sync();
        await JournalWriter.syncDirectory(directory);
        position = headerFrame.length;
      } else if (header.t !== 'h' || header.v !== JOURNAL_FORMAT_VERSION) {
        throw new Error(`${path} is not a version ${JOURNAL_FORMAT_VERSION} queue journal (first record ${
          JSON.stringify(header).slice(0, 100)})`);
      } else if (consumed < buffer.length) {
        const tail = buffer.subarray(consumed);
        let kept = '';
        if (tail.some((byte): boolean => byte !== 0)) {
          // Normally half an append cut by a crash; if it was damage in the middle of
          // the journal, the records after it are in this file for an operator.
          await fs.writeFile(`${path}.cut`, tail);
          kept = ` (kept in ${path}.cut)`;
        }
        warn(`Queue ${queueName}: cut ${tail.length} bytes of torn or damaged tail off ${path}${kept}`);
        await handle.truncate(consumed);
        await handle.sync();
      }
      const writer = new JournalWriter(directory, queueName, options, warn, handle, sequence, position);
      return { writer, records: records.slice(1), cutBytes: created ? 0 : buffer.length - consumed };
    } catch (error: unknown) {
      await handle.close();
      throw error;
    }
  }

  /** Bytes in the current journal file. */
  public get size(): number {
    return this.position;
  }

  /** Compactions done since open. */
  public get compactions(): number {
    return this.compactionCount;
  }

  public get failed(): Error | undefined {
    return this.failure;
  }

  public setCompactionSource(source: CompactionSource): void {
    this.source = source;
  }

  /** Appends a framed record; resolves once it is on stable storage. */
  public append(record: Buffer): Promise<void> {
    const refusal = this.refusal();
    if (refusal) {
      return Promise.reject(refusal);
    }
    return new Promise<void>((resolve, reject): void => {
      this.queue.push({ record, resolve, reject });
      this.queuedBytes += record.length;
      this.startDraining();
    });
  }

  /** Appends a framed record without waiting for it; dropped once closed or failed. */
  public appendLazy(record: Buffer): void {
    if (this.refusal()) {
      return;
    }
    this.queue.push({ record });
    this.queuedBytes += record.length;
    if (!this.draining && !this.lazyTimer) {
      this.lazyTimer = setTimeout((): void => this.startDraining(), this.options.lazyFlushMs);
      this.lazyTimer.unref();
    }
  }

  /** Resolves when everything appended so far is durable (or has failed). */
  public flush(): Promise<void> {
    if (this.queue.length > 0) {
      this.startDraining();
    }
    if (!this.draining) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve): void => {
      this.idleWaiters.push(resolve);
    });
  }

  /** Compacts now (if there is a compaction source), whatever the sizes. */
  public async compact(): Promise<void> {
    while (this.draining) {
      await this.flush();
    }
    const refusal = this.refusal();
    if (refusal) {
      throw refusal;
    }
    if (!this.source) {
      return;
    }
    if (this.lazyTimer) {
      clearTimeout(this.lazyTimer);
      this.lazyTimer = undefined;
    }
    // As in drain(): the pending appends and the snapshot are taken in one tick.
    const batch = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    const snapshot = this.source.snapshot();
    this.draining = true;
    try {
      await this.rewrite(snapshot);
    } catch (error: unknown) {
      // The current journal stays in charge: append the batch to it as usual.
      this.queue = [ ...batch, ...this.queue ];
      this.queuedBytes = this.queue.reduce((sum, entry): number => sum + entry.record.length, 0);
      this.draining = false;
      this.startDraining();
      throw error;
    }
    for (const entry of batch) {
      entry.resolve?.();
    }
    this.draining = false;
    await this.flush();
  }

  public async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    await this.flush();
    this.closed = true;
    await this.handle.close();
  }

  private refusal(): Error | undefined {
    if (this.failure) {
      return new Error(`Journal of queue ${this.queueName} is unusable after an I/O error (${
        this.failure.message}); restart the process`);
    }
    if (this.closed) {
      return new Error(`Queue ${this.queueName} is closed`);
    }
    return undefined;
  }

  private startDraining(): void {
    if (this.lazyTimer) {
      clearTimeout(this.lazyTimer);
      this.lazyTimer = undefined;
    }
    if (!this.draining) {
      this.draining = true;
      void this.drain();
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.failure) {
      // Take everything queued so far: this is the group commit.
      const batch = this.queue;
      const batchBytes = this.queuedBytes;
      this.queue = [];
      this.queuedBytes = 0;
      try {
        // The snapshot is taken in the same tick as the batch: it covers exactly the
        // records in the batch and before, so the batch need not be written.
        const snapshot = this.shouldCompact(batchBytes) ? this.source?.snapshot() : undefined;
        if (snapshot && await this.tryRewrite(snapshot)) {
          // Done: the batch's effects are in the new journal.
        } else {
          await JournalWriter.writeFully(this.handle, JournalWriter.concat(batch), this.position);
          this.position += batchBytes;
          await this.handle.datasync();
        }
        for (const entry of batch) {
          entry.resolve?.();
        }
      } catch (error: unknown) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        const refusal = this.refusal() as Error;
        this.warn(refusal.message);
        for (const entry of [ ...batch, ...this.queue ]) {
          entry.reject?.(refusal);
        }
        this.queue = [];
        this.queuedBytes = 0;
      }
    }
    this.draining = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) {
      waiter();
    }
  }

  private shouldCompact(batchBytes: number): boolean {
    if (!this.source) {
      return false;
    }
    const size = this.position + batchBytes;
    return size >= this.options.compactMinBytes && size >= this.compactionFloor &&
      size >= this.options.compactRatio * this.source.liveBytes();
  }

  /** A compaction that fails leaves the current journal in charge: the caller then appends to it. */
  private async tryRewrite(snapshot: Buffer[]): Promise<boolean> {
    try {
      await this.rewrite(snapshot);
      return true;
    } catch (error: unknown) {
      this.compactionFloor = this.position + this.options.compactMinBytes;
      this.warn(`Queue ${this.queueName}: compaction failed, journal kept (${(error as Error).message})`);
      return false;
    }
  }

  private async rewrite(snapshot: Buffer[]): Promise<void> {
    const next = this.sequence + 1;
    const finalPath = JournalWriter.journalPath(this.directory, next);
    const tempPath = `${finalPath}${TEMP_SUFFIX}`;
    const handle = await fs.open(tempPath, 'w');
    let position = 0;
    try {
      const pieces = [ JournalWriter.headerFrame(this.queueName), ...snapshot ];
      let start = 0;
      while (start < pieces.length) {
        let end = start;
        let bytes = 0;
        while (end < pieces.length && (end === start || bytes + pieces[end].length <= WRITE_CHUNK_BYTES)) {
          bytes += pieces[end].length;
          end += 1;
        }
        const chunk = end - start === 1 ? pieces[start] : Buffer.concat(pieces.slice(start, end), bytes);
        await JournalWriter.writeFully(handle, chunk, position);
        position += chunk.length;
        start = end;
      }
      await handle.sync();
      await fs.rename(tempPath, finalPath);
    } catch (error: unknown) {
      await handle.close().catch((): void => undefined);
      await fs.rm(tempPath, { force: true }).catch((): void => undefined);
      throw error;
    }
    // From here the new journal is the one a restart reads (once the rename is durable).
    await JournalWriter.syncDirectory(this.directory);
    const old = this.handle;
    const oldPath = JournalWriter.journalPath(this.directory, this.sequence);
    this.handle = handle;
    this.sequence = next;
    this.position = position;
    this.compactionFloor = 0;
    this.compactionCount += 1;
    await old.close().catch((): void => undefined);
    // If this is lost, open() deletes the older journal.
    await fs.rm(oldPath, { force: true }).catch((): void => undefined);
  }

  private static headerFrame(queueName: string): Buffer {
    return JournalCodec.frame({ t: 'h', v: JOURNAL_FORMAT_VERSION, queue: queueName });
  }

  private static concat(batch: Entry[]): Buffer {
    return batch.length === 1 ? batch[0].record : Buffer.concat(batch.map((entry): Buffer => entry.record));
  }

  private static async writeFully(handle: fs.FileHandle, data: Buffer, position: number): Promise<void> {
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await handle.write(data, written, data.length - written, position + written);
      written += bytesWritten;
    }
  }

  private static async syncDirectory(directory: string): Promise<void> {
    const handle = await fs.open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
