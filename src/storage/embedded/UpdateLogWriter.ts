import { promises as fs } from 'node:fs';
import type { DatasetFiles } from './DatasetFiles';

interface PendingAppend {
  readonly record: Buffer;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** A queue entry saying "later records go to the next log file". */
interface PendingRotation {
  readonly rotation: true;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

type Pending = PendingAppend | PendingRotation;

/** Log files grow by this much at a time, written as zeros (see preallocate()). */
const PREALLOCATION_BYTES = 8 * 1024 * 1024;
const ZEROS = Buffer.alloc(1024 * 1024);

/** Handle on a requested rotation. */
export interface LogRotation {
  /** Last log sequence that holds records appended before the rotation. */
  readonly coveredSequence: number;
  /** Resolves once that log is fsynced and closed and the next one exists on disk. */
  readonly done: Promise<void>;
}

/**
 * Append-only update log with group commit: every append waits for an fdatasync,
 * and all appends that arrive while one sync is in flight share the next sync,
 * so throughput scales with concurrency instead of being capped by disk latency.
 *
 * The file is grown ahead of the appends by writing zeros, so an append does not
 * change the file size and its fdatasync need not commit metadata to the
 * filesystem journal: about 3x cheaper on ext4. Readers treat the zeros as end.
 *
 * After an I/O error the writer refuses all further appends: the in-memory store
 * may then hold changes that are not on disk, and pretending otherwise would
 * acknowledge writes that a restart loses.
 */
export class UpdateLogWriter {
  private queue: Pending[] = [];
  private draining = false;
  private closed = false;
  private failure: Error | undefined;
  private idleWaiters: (() => void)[] = [];
  /** Sequence of the log that newly appended records belong to. */
  private logicalSequence: number;
  private bytesInLogicalLog: number;

  /**
   * @param position - where the next record goes (end of the valid records)
   * @param allocated - current file size (position plus any zeroed space)
   */
  public constructor(
    private readonly files: DatasetFiles,
    private handle: fs.FileHandle,
    private physicalSequence: number,
    private position: number,
    private allocated: number,
  ) {
    this.logicalSequence = physicalSequence;
    this.bytesInLogicalLog = position;
  }

  /** Opens log `sequence` for appending at `position`, creating it (durably) if absent. */
  public static async open(files: DatasetFiles, sequence: number, position: number): Promise<UpdateLogWriter> {
    const path = files.logPath(sequence);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path, 'r+');
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw error;
      }
      handle = await fs.open(path, 'wx');
      await files.syncDirectory();
    }
    const size = (await handle.stat()).size;
    return new UpdateLogWriter(files, handle, sequence, position, Math.max(size, position));
  }

  public get sequence(): number {
    return this.logicalSequence;
  }

  /** Bytes appended to the current log, counted at append time (before the write lands). */
  public get bytesInCurrentLog(): number {
    return this.bytesInLogicalLog;
  }

  public get failed(): Error | undefined {
    return this.failure;
  }

  /** Appends a framed record; resolves once it is on stable storage. */
  public append(record: Buffer): Promise<void> {
    const refusal = this.refusal();
    if (refusal) {
      return Promise.reject(refusal);
    }
    this.bytesInLogicalLog += record.length;
    return new Promise<void>((resolve, reject): void => {
      this.queue.push({ record, resolve, reject });
      this.startDraining();
    });
  }

  /**
   * Everything appended before this call stays in the current log; everything after
   * goes to a new one. Synchronous on purpose: called in the same tick as a store dump,
   * the dump and the covered log describe exactly the same set of operations.
   */
  public rotate(): LogRotation {
    const coveredSequence = this.logicalSequence;
    const refusal = this.refusal();
    if (refusal) {
      return { coveredSequence, done: Promise.reject(refusal) };
    }
    this.logicalSequence += 1;
    this.bytesInLogicalLog = 0;
    const done = new Promise<void>((resolve, reject): void => {
      this.queue.push({ rotation: true, resolve, reject });
      this.startDraining();
    });
    return { coveredSequence, done };
  }

  /** Resolves when everything queued so far is durable (or has failed). */
  public flush(): Promise<void> {
    if (!this.draining && this.queue.length === 0) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve): void => {
      this.idleWaiters.push(resolve);
    });
  }

  public async close(): Promise<void> {
    if (this.closed) {
      return;
    }
    await this.flush();
    this.closed = true;
    if (!this.failure) {
      await this.trimPreallocation();
    }
    await this.handle.close();
  }

  private refusal(): Error | undefined {
    if (this.failure) {
      return new Error(`Update log is unusable after an I/O error (${this.failure.message}); restart the store`);
    }
    if (this.closed) {
      return new Error('Update log is closed');
    }
    return undefined;
  }

  private startDraining(): void {
    if (!this.draining) {
      this.draining = true;
      void this.drain();
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.failure) {
      // Take everything queued so far: this is the group commit.
      const batch = this.queue;
      this.queue = [];
      let start = 0;
      try {
        for (let index = 0; index <= batch.length; index += 1) {
          const entry = batch[index];
          if (index === batch.length || 'rotation' in entry) {
            await this.writeAndSync(batch, start, index);
            if (entry && 'rotation' in entry) {
              await this.switchToNextFile();
              entry.resolve();
            }
            start = index + 1;
          }
        }
      } catch (error: unknown) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        const refusal = this.refusal() as Error;
        for (const entry of batch.slice(start)) {
          entry.reject(refusal);
        }
        for (const entry of this.queue) {
          entry.reject(refusal);
        }
        this.queue = [];
      }
    }
    this.draining = false;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) {
      waiter();
    }
  }

  private async writeAndSync(batch: readonly Pending[], start: number, end: number): Promise<void> {
    if (start >= end) {
      return;
    }
    const records: Buffer[] = [];
    for (let index = start; index < end; index += 1) {
      records.push((batch[index] as PendingAppend).record);
    }
    const data = records.length === 1 ? records[0] : Buffer.concat(records);
    if (this.position + data.length > this.allocated) {
      await this.preallocate(this.position + data.length);
    }
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written, this.position + written);
      written += bytesWritten;
    }
    this.position += data.length;
    await this.handle.datasync();
    for (let index = start; index < end; index += 1) {
      batch[index].resolve();
    }
  }

  /** Extends the file with zeros past `needed` and makes the new size durable. */
  private async preallocate(needed: number): Promise<void> {
    const target = needed + PREALLOCATION_BYTES;
    while (this.allocated < target) {
      const length = Math.min(ZEROS.length, target - this.allocated);
      const { bytesWritten } = await this.handle.write(ZEROS, 0, length, this.allocated);
      this.allocated += bytesWritten;
    }
    await this.handle.sync();
  }

  /** Cuts the zeroed space off a log that will get no more appends. */
  private async trimPreallocation(): Promise<void> {
    if (this.allocated > this.position) {
      await this.handle.truncate(this.position);
      await this.handle.sync();
      this.allocated = this.position;
    }
  }

  private async switchToNextFile(): Promise<void> {
    // Records before the marker are already synced; trimming first means only the
    // newest log can ever end in zeros.
    await this.trimPreallocation();
    const next = this.physicalSequence + 1;
    const handle = await fs.open(this.files.logPath(next), 'wx');
    await this.files.syncDirectory();
    await this.handle.close();
    this.handle = handle;
    this.physicalSequence = next;
    this.position = 0;
    this.allocated = 0;
  }
}
