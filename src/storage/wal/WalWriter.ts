import { promises as fs } from 'node:fs';
import { WalDirectory } from './WalDirectory';
import type { WalFile, WalFileOpener } from './WalFile';
import { WalFrameCodec } from './WalFrameCodec';
import { errnoOf } from '../../util/Errors';

export interface WalWriterOptions {
  /** Names the log in errors, e.g. `Update log`. */
  readonly label?: string;
  /**
   * Grow the file by this many zero bytes whenever an append reaches its end (0: never).
   * An append then does not change the file size, so its fdatasync need not commit
   * metadata: about 3x cheaper on ext4. Readers take the zeros for the end.
   */
  readonly preallocateBytes?: number;
  /** Records appended with appendLazy() are written at the latest this long after. */
  readonly lazyFlushMs?: number;
  readonly codec?: WalFrameCodec;
  /** Told once, when an I/O error makes the log unusable. */
  readonly warn?: (message: string) => void;
  readonly openFile?: WalFileOpener;
}

/** Handle on a requested rotation. */
export interface WalRotation {
  /** Last log sequence that holds records appended before the rotation. */
  readonly coveredSequence: number;
  /** Resolves once that log is synced and closed and the next one exists on disk. */
  readonly done: Promise<void>;
}

interface PendingAppend {
  readonly kind: 'append';
  readonly frame: Buffer;
  /** Absent for lazy appends, which nobody waits for. */
  readonly resolve?: () => void;
  readonly reject?: (error: Error) => void;
}

/** "Later records go to the next log file." */
interface PendingRotation {
  readonly kind: 'rotate';
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** "The next log file holds `frames` instead of everything appended so far." */
interface PendingRewrite {
  readonly kind: 'rewrite';
  readonly frames: Buffer[];
  readonly bytes: number;
  /** Bytes of the logical log the rewrite replaces, restored if it fails. */
  readonly replacedBytes: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

type Pending = PendingAppend | PendingRotation | PendingRewrite;

/** A rewrite writes its new file in pieces of about this size. */
const WRITE_CHUNK_BYTES = 4 * 1024 * 1024;
const ZEROS = Buffer.alloc(1024 * 1024);

const openFileHandle: WalFileOpener = async(path, flags): Promise<WalFile> => fs.open(path, flags);

const ignore = (): void => undefined;

/**
 * The appending end of a write-ahead log: numbered files in a WalDirectory, one of them
 * current. Records are framed by a WalFrameCodec.
 *
 * Group commit: every append() waits for an fdatasync, and all appends that arrive while a
 * sync is in flight share the next one, so throughput grows with the number of concurrent
 * writers instead of being capped by the disk's sync latency. Each append's promise
 * resolves only after the sync that covers its bytes. Lazy appends (appendLazy()) are not
 * waited for: they ride along with the next sync, or are flushed within `lazyFlushMs`.
 *
 * Two ways to move on to the next file, both ordered with the appends:
 *  - rotate(): records appended before stay in the current file (synced, its preallocated
 *    zeros cut off), later ones go to a new, empty file. The caller removes old files.
 *  - rewrite(): the next file is written aside with the given records, synced and renamed
 *    into place; it replaces everything appended before (those records are then never
 *    written) and the old file is deleted. If writing it fails, the current file stays in
 *    charge and the records it was to replace are appended to it as usual.
 *
 * After an I/O error on the log, the writer refuses all further appends: the caller may then
 * hold state that is not on disk, and acknowledging more would be a lie.
 */
export class WalWriter {
  private queue: Pending[] = [];
  private draining = false;
  private lazyTimer: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;
  private failure: Error | undefined;
  private idleWaiters: (() => void)[] = [];
  private rewritePending = false;
  /** Sequence of the log that newly appended records belong to. */
  private logicalSequence: number;
  private bytesInLogicalLog: number;
  private readonly label: string;
  private readonly preallocateBytes: number;
  private readonly lazyFlushMs: number;
  private readonly codec: WalFrameCodec;
  private readonly warn: ((message: string) => void) | undefined;
  private readonly openFile: WalFileOpener;

  /**
   * @param position - where the next record goes (end of the valid records)
   * @param allocated - current file size (position plus any zeroed space)
   */
  private constructor(
    private readonly files: WalDirectory,
    private handle: WalFile,
    private physicalSequence: number,
    private position: number,
    private allocated: number,
    options: WalWriterOptions,
  ) {
    this.logicalSequence = physicalSequence;
    this.bytesInLogicalLog = position;
    this.label = options.label ?? 'Write-ahead log';
    this.preallocateBytes = options.preallocateBytes ?? 0;
    this.lazyFlushMs = options.lazyFlushMs ?? 20;
    this.codec = options.codec ?? new WalFrameCodec();
    this.warn = options.warn;
    this.openFile = options.openFile ?? openFileHandle;
  }

  /**
   * Opens log `sequence` of `files` for appending at `position` (the end of its valid
   * records, see WalReader), creating it durably if absent.
   */
  public static async open(files: WalDirectory, sequence: number, position: number, options: WalWriterOptions = {}):
  Promise<WalWriter> {
    const openFile = options.openFile ?? openFileHandle;
    const path = files.path(sequence);
    let handle: WalFile;
    let created = false;
    try {
      handle = await openFile(path, 'r+');
    } catch (error: unknown) {
      if (errnoOf(error) !== 'ENOENT') {
        throw error;
      }
      handle = await openFile(path, 'wx');
      created = true;
    }
    try {
      if (created) {
        await files.syncDirectory();
      }
      const size = (await fs.stat(path)).size;
      return new WalWriter(files, handle, sequence, position, Math.max(size, position), options);
    } catch (error: unknown) {
      await handle.close().catch(ignore);
      throw error;
    }
  }

  /** Sequence of the log that newly appended records go to. */
  public get sequence(): number {
    return this.logicalSequence;
  }

  /** Bytes in the current log, counting records when they are appended (before they are written). */
  public get bytesInCurrentLog(): number {
    return this.bytesInLogicalLog;
  }

  public get failed(): Error | undefined {
    return this.failure;
  }

  /** Appends a record; resolves once it is on stable storage. */
  public append(payload: Buffer | string): Promise<void> {
    const refusal = this.refusal();
    if (refusal) {
      return Promise.reject(refusal);
    }
    let frame: Buffer;
    try {
      frame = this.codec.frame(payload);
    } catch (error: unknown) {
      return Promise.reject(error);
    }
    this.bytesInLogicalLog += frame.length;
    return new Promise<void>((resolve, reject): void => {
      this.queue.push({ kind: 'append', frame, resolve, reject });
      this.startDraining();
    });
  }

  /** Appends a record without waiting for it; dropped once closed or failed. */
  public appendLazy(payload: Buffer | string): void {
    if (this.refusal()) {
      return;
    }
    const frame = this.codec.frame(payload);
    this.bytesInLogicalLog += frame.length;
    this.queue.push({ kind: 'append', frame });
    if (!this.draining && !this.lazyTimer) {
      this.lazyTimer = setTimeout((): void => this.startDraining(), this.lazyFlushMs);
      this.lazyTimer.unref();
    }
  }

  /**
   * Everything appended before this call stays in the current log; everything after goes
   * to a new one. Synchronous on purpose: called in the same tick as a snapshot of the
   * caller's state, the snapshot and the covered logs describe exactly the same records.
   */
  public rotate(): WalRotation {
    const coveredSequence = this.logicalSequence;
    const refusal = this.refusal() ?? this.rewriteRefusal();
    if (refusal) {
      return { coveredSequence, done: WalWriter.handled(Promise.reject(refusal)) };
    }
    this.logicalSequence += 1;
    this.bytesInLogicalLog = 0;
    const done = new Promise<void>((resolve, reject): void => {
      this.queue.push({ kind: 'rotate', resolve, reject });
      this.startDraining();
    });
    return { coveredSequence, done: WalWriter.handled(done) };
  }

  /**
   * Replaces everything appended so far (written or not) by `payloads`, in a new log file;
   * later appends go after them. Resolves once the new file is durably in place; rejects,
   * leaving the current file in charge, if it could not be written. The caller takes
   * `payloads` from its state in the same tick, so they include the effects of every record
   * appended before.
   */
  public rewrite(payloads: readonly (Buffer | string)[]): Promise<void> {
    const refusal = this.refusal() ?? this.rewriteRefusal();
    if (refusal) {
      return Promise.reject(refusal);
    }
    let frames: Buffer[];
    try {
      frames = payloads.map((payload): Buffer => this.codec.frame(payload));
    } catch (error: unknown) {
      return Promise.reject(error);
    }
    const bytes = frames.reduce((sum, frame): number => sum + frame.length, 0);
    const replacedBytes = this.bytesInLogicalLog;
    this.logicalSequence += 1;
    this.bytesInLogicalLog = bytes;
    this.rewritePending = true;
    return new Promise<void>((resolve, reject): void => {
      this.queue.push({ kind: 'rewrite', frames, bytes, replacedBytes, resolve, reject });
      this.startDraining();
    });
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

  /** Writes what is pending, cuts off preallocated zeros and closes the file. */
  public close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    // New appends are refused from now on; what was appended before is written.
    while (this.draining || this.queue.length > 0) {
      await this.flush();
    }
    try {
      if (!this.failure) {
        await this.trimPreallocation();
      }
    } finally {
      await this.handle.close();
    }
  }

  private refusal(): Error | undefined {
    if (this.failure) {
      return new Error(`${this.label} is unusable after an I/O error (${this.failure.message}); restart the process`);
    }
    if (this.closing) {
      return new Error(`${this.label} is closed`);
    }
    return undefined;
  }

  private rewriteRefusal(): Error | undefined {
    // A failed rewrite gives its sequence number back, which it cannot once another follows.
    return this.rewritePending ? new Error(`${this.label}: a rewrite is under way`) : undefined;
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
      this.queue = [];
      let settled = 0;
      try {
        let start = 0;
        for (let index = 0; index <= batch.length; index += 1) {
          const entry = batch[index] as Pending | undefined;
          if (entry?.kind === 'append') {
            continue;
          }
          const appends = batch.slice(start, index) as PendingAppend[];
          if (entry?.kind === 'rewrite') {
            await this.replace(entry, appends);
          } else {
            await this.writeAndSync(appends);
            WalWriter.resolveAll(appends);
            if (entry) {
              await this.switchToNextFile();
              entry.resolve();
            }
          }
          start = index + 1;
          settled = start;
        }
      } catch (error: unknown) {
        this.failure = error instanceof Error ? error : new Error(String(error));
        const refusal = this.refusal() as Error;
        this.warn?.(refusal.message);
        for (const entry of [ ...batch.slice(settled), ...this.queue ]) {
          entry.reject?.(refusal);
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

  private async writeAndSync(appends: readonly PendingAppend[]): Promise<void> {
    if (appends.length === 0) {
      return;
    }
    const data = appends.length === 1 ? appends[0].frame : Buffer.concat(appends.map((entry): Buffer => entry.frame));
    if (this.preallocateBytes > 0 && this.position + data.length > this.allocated) {
      await this.preallocate(this.position + data.length);
    }
    await WalWriter.writeFully(this.handle, data, this.position);
    this.position += data.length;
    this.allocated = Math.max(this.allocated, this.position);
    await this.handle.datasync();
  }

  /** Extends the file with zeros past `needed` and makes the new size durable. */
  private async preallocate(needed: number): Promise<void> {
    const target = needed + this.preallocateBytes;
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
    // Records before the rotation are already synced; trimming first means only the
    // newest log can ever end in zeros.
    await this.trimPreallocation();
    const next = this.physicalSequence + 1;
    const handle = await this.openFile(this.files.path(next), 'wx');
    const old = this.handle;
    this.handle = handle;
    this.physicalSequence = next;
    this.position = 0;
    this.allocated = 0;
    await old.close();
    await this.files.syncDirectory();
  }

  private async replace(rewrite: PendingRewrite, superseded: readonly PendingAppend[]): Promise<void> {
    let written: { handle: WalFile; size: number };
    try {
      written = await this.writeAside(rewrite.frames);
    } catch (error: unknown) {
      // Nothing changed on disk: the current file stays the log, with what it was to lose.
      this.rewritePending = false;
      this.logicalSequence -= 1;
      this.bytesInLogicalLog += rewrite.replacedBytes - rewrite.bytes;
      await this.writeAndSync(superseded);
      WalWriter.resolveAll(superseded);
      rewrite.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    // Renamed into place: from here the new file is the one a restart reads, once the
    // rename is durable. Failing to make it so is fatal, like any failed sync.
    const old = this.handle;
    const oldPath = this.files.path(this.physicalSequence);
    this.handle = written.handle;
    this.physicalSequence += 1;
    this.position = written.size;
    this.allocated = written.size;
    this.rewritePending = false;
    await old.close().catch(ignore);
    await this.files.syncDirectory();
    WalWriter.resolveAll(superseded);
    rewrite.resolve();
    // If this is lost, the file is older than the current one and its owner removes it.
    await fs.rm(oldPath, { force: true }).catch(ignore);
  }

  /** Writes `<next log>.tmp`, syncs it and renames it to the next log. */
  private async writeAside(frames: readonly Buffer[]): Promise<{ handle: WalFile; size: number }> {
    const finalPath = this.files.path(this.physicalSequence + 1);
    const tempPath = `${finalPath}${WalDirectory.tempSuffix}`;
    const handle = await this.openFile(tempPath, 'w');
    let size = 0;
    try {
      let start = 0;
      while (start < frames.length) {
        let end = start;
        let bytes = 0;
        while (end < frames.length && (end === start || bytes + frames[end].length <= WRITE_CHUNK_BYTES)) {
          bytes += frames[end].length;
          end += 1;
        }
        const chunk = end - start === 1 ? frames[start] : Buffer.concat(frames.slice(start, end), bytes);
        await WalWriter.writeFully(handle, chunk, size);
        size += chunk.length;
        start = end;
      }
      await handle.sync();
      await fs.rename(tempPath, finalPath);
    } catch (error: unknown) {
      await handle.close().catch(ignore);
      await fs.rm(tempPath, { force: true }).catch(ignore);
      throw error;
    }
    return { handle, size };
  }

  private static resolveAll(appends: readonly PendingAppend[]): void {
    for (const entry of appends) {
      entry.resolve?.();
    }
  }

  /** A rejection nobody awaited yet is still reported to whoever does, but not as unhandled. */
  private static handled(promise: Promise<void>): Promise<void> {
    promise.catch(ignore);
    return promise;
  }

  private static async writeFully(handle: WalFile, data: Buffer, position: number): Promise<void> {
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await handle.write(data, written, data.length - written, position + written);
      written += bytesWritten;
    }
  }
}
