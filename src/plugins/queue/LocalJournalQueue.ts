import { randomUUID } from 'node:crypto';
import { getLoggerFor } from '@solid/community-server';
import type { Metrics } from '../observability/Metrics';
import { NO_METRICS } from '../observability/NoopMetrics';
import { RequestContext } from '../observability/RequestContext';
import { DueTimeHeap } from './DueTimeHeap';
import type { DeadLetter, JobHandler, JobOptions, JobQueue, JobQueueCounts } from './JobQueue';
import { WalFrameCodec } from '../../storage/wal/WalFrameCodec';
import { JournalCodec } from './JournalCodec';
import type { JournalRecord } from './JournalRecord';
import { QueueJournal } from './QueueJournal';
import { PermanentJobError } from './PermanentJobError';
import { DirectoryLock } from '../../util/DirectoryLock';
import { RetryPolicy } from './RetryPolicy';
import { describeJobError, RunningJobs } from './RunningJobs';
import { jobDataJson } from './UnstorableJob';
import { messageOf } from '../../util/Errors';

export interface LocalJournalQueueOptions {
  retry?: RetryPolicy;
  /** close() waits this long for running jobs; those still running then run again after a restart. */
  closeTimeoutMs?: number;
  /**
   * A job whose runs a crash cut short more than this many times becomes a dead
   * letter (a job that crashes the process must not crash it forever).
   */
  maxInterruptions?: number;
  /** Dead letters kept, the oldest dropped first. */
  maxDeadLetters?: number;
  /** No compaction below this journal size. */
  compactMinBytes?: number;
  /** Compaction once the journal is this many times the size of the live records. */
  compactRatio?: number;
  /** How long started/completed/failed records may wait for a sync. */
  lazyFlushMs?: number;
  /** Where retries and dead letters are counted. */
  metrics?: Metrics;
}

const DEFAULTS = {
  closeTimeoutMs: 10_000,
  maxInterruptions: 3,
  maxDeadLetters: 10_000,
  compactMinBytes: 4 * 1024 * 1024,
  compactRatio: 2,
  lazyFlushMs: 20,
};

/** setTimeout takes at most 2^31-1 ms; longer waits re-check. */
const MAX_TIMER_MS = 60 * 60 * 1000;
const MAX_JOB_ID_LENGTH = 64 * 1024;

interface PendingJob {
  readonly id: string;
  readonly dataJson: string;
  /** Epoch ms from which it may run. */
  due: number;
  /** Failed runs so far. */
  failures: number;
  /** Runs a crash cut short so far. */
  interruptions: number;
  /** In a handler now. */
  running: boolean;
  /** A run began (per the journal being replayed) and no outcome followed. */
  started: boolean;
  /** In the ready list or the delay heap. */
  queued: boolean;
  /** Resolves once its `a` record is durable. */
  durable: Promise<void>;
  /** Approximate bytes of its record in a compacted journal. */
  readonly bytes: number;
}

interface StoredDeadLetter {
  readonly id: string;
  readonly dataJson: string;
  readonly attempts: number;
  readonly error: string;
  readonly at: number;
  readonly bytes: number;
}

/**
 * The queue for a server without Redis: jobs live in memory and in an append-only
 * journal in `directory` (`<dataDir>/queues/<name>/`), so a crash, kill -9 included,
 * loses no acknowledged job.
 *
 * - add() resolves only once the job's record is fsynced; concurrent adds share one
 *   fsync (group commit, see QueueJournal).
 * - On open, the journal is replayed: every job added and neither completed nor dead
 *   runs again (at least once), a run that a crash cut short included; a torn tail
 *   (a record half written when the process died) is cut off.
 * - Failed runs are retried after RetryPolicy's backoff, their due time journalled;
 *   a PermanentJobError or the last attempt makes the job a dead letter, kept in the
 *   journal and listed by deadLetters().
 * - The journal is compacted (live records rewritten to a new file, fsync, rename,
 *   directory fsync) once it is both compactMinBytes and compactRatio times the live size.
 *
 * ONE process per data dir: the directory is locked (DirectoryLock); a second process
 * (or a second queue of the same name in this process) fails to open it.
 * Job data must be JSON-serializable; handlers see it after a JSON round trip.
 */
export class LocalJournalQueue<T> implements JobQueue<T> {
  protected readonly logger = getLoggerFor(this);

  private readonly retry: RetryPolicy;
  private readonly settings: typeof DEFAULTS;
  private readonly opened: Promise<void>;
  private readonly metrics: Metrics;
  private isOpen = false;
  private lock: DirectoryLock | undefined;
  private journal: QueueJournal | undefined;

  private readonly pending = new Map<string, PendingJob>();
  private dead: StoredDeadLetter[] = [];
  private pendingBytes = 0;
  private deadBytes = 0;

  /** Ids of due jobs in the order they run, from readyHead on. */
  private ready: PendingJob[] = [];
  private readyHead = 0;
  private readonly delayed = new DueTimeHeap<PendingJob>();
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Number.POSITIVE_INFINITY;

  private handler: JobHandler<T> | undefined;
  private concurrency = 0;
  private readonly running = new RunningJobs();
  private closing = false;
  private closed: Promise<void> | undefined;

  public constructor(
    public readonly name: string,
    private readonly directory: string,
    options: LocalJournalQueueOptions = {},
  ) {
    this.retry = options.retry ?? new RetryPolicy();
    this.settings = {
      closeTimeoutMs: options.closeTimeoutMs ?? DEFAULTS.closeTimeoutMs,
      maxInterruptions: options.maxInterruptions ?? DEFAULTS.maxInterruptions,
      maxDeadLetters: options.maxDeadLetters ?? DEFAULTS.maxDeadLetters,
      compactMinBytes: options.compactMinBytes ?? DEFAULTS.compactMinBytes,
      compactRatio: options.compactRatio ?? DEFAULTS.compactRatio,
      lazyFlushMs: options.lazyFlushMs ?? DEFAULTS.lazyFlushMs,
    };
    this.metrics = options.metrics ?? NO_METRICS;
    this.opened = this.open();
    this.opened.then((): void => {
      this.isOpen = true;
    }, (): void => undefined);
    // Reported by add(), counts(), ... and the log; not an unhandled rejection.
    this.opened.catch((error: unknown): void => {
      this.logger.error(`Queue ${name} could not open ${directory}: ${messageOf(error)}`);
    });
  }

  /** Resolves once the journal is replayed; rejects if the queue cannot open. */
  public whenOpen(): Promise<void> {
    return this.opened;
  }

  public get isClosed(): boolean {
    return this.closing;
  }

  /** Open (journal replayed) and not closing. */
  public isRunning(): boolean {
    return this.isOpen && !this.closing;
  }

  /** Bytes in the current journal file and compactions done (for tests and metrics). */
  public journalStats(): { bytes: number; compactions: number } {
    return { bytes: this.journal?.size ?? 0, compactions: this.journal?.compactions ?? 0 };
  }

  /** Compacts the journal now. */
  public async compact(): Promise<void> {
    await this.opened;
    await this.requireJournal().compact();
  }

  public async add(data: T, options: JobOptions = {}): Promise<string> {
    const { jobId, delayMs = 0 } = options;
    if (jobId !== undefined && (typeof jobId !== 'string' || jobId.length === 0 || jobId.length > MAX_JOB_ID_LENGTH)) {
      throw new Error(`jobId must be a non-empty string of at most ${MAX_JOB_ID_LENGTH} characters`);
    }
    if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
      throw new Error(`delayMs must be a finite number >= 0, not ${String(delayMs)}`);
    }
    // Data that cannot be written (too deep for JSON.stringify) is the caller's 4xx, refused alone.
    const dataJson = jobDataJson(data);
    await this.opened;
    const journal = this.requireJournal();
    const id = jobId ?? randomUUID();
    const existing = this.pending.get(id);
    if (existing) {
      await existing.durable;
      return id;
    }
    const due = Date.now() + delayMs;
    const record = JournalCodec.encodeAdded(id, dataJson, due, 0, 0);
    const job: PendingJob = {
      id,
      dataJson,
      due,
      failures: 0,
      interruptions: 0,
      running: false,
      started: false,
      queued: false,
      durable: journal.append(record),
      bytes: LocalJournalQueue.recordBytes(record),
    };
    this.addPending(job);
    this.enqueue(job);
    try {
      await job.durable;
    } catch (error: unknown) {
      // Not acknowledged: do not run it unless it already started.
      if (this.pending.get(id) === job && !job.running) {
        this.removePending(job);
      }
      throw error;
    }
    return id;
  }

  public process(handler: JobHandler<T>, concurrency: number): void {
    if (this.handler) {
      throw new Error(`Queue ${this.name} already has a handler`);
    }
    if (this.closing) {
      throw new Error(`Queue ${this.name} is closed`);
    }
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`Concurrency must be an integer >= 1, not ${concurrency}`);
    }
    this.handler = handler;
    this.concurrency = concurrency;
    this.opened.then((): void => this.pump(), (): void => undefined);
  }

  public async deadLetters(limit = 100): Promise<DeadLetter<T>[]> {
    await this.opened;
    const result: DeadLetter<T>[] = [];
    for (let index = this.dead.length - 1; index >= 0 && result.length < limit; index -= 1) {
      const letter = this.dead[index];
      result.push({
        id: letter.id,
        queue: this.name,
        data: JSON.parse(letter.dataJson) as T,
        attempts: letter.attempts,
        error: letter.error,
        failedAt: new Date(letter.at).toISOString(),
      });
    }
    return result;
  }

  public async counts(): Promise<JobQueueCounts> {
    await this.opened;
    const now = Date.now();
    let waiting = 0;
    let delayed = 0;
    for (const job of this.pending.values()) {
      if (!job.running) {
        if (job.due > now) {
          delayed += 1;
        } else {
          waiting += 1;
        }
      }
    }
    return { waiting, active: this.running.count, delayed, dead: this.dead.length };
  }

  public close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    this.closing = true;
    this.clearTimer();
    try {
      await this.opened;
    } catch {
      // Never opened: nothing to close (open() released the lock).
      return;
    }
    if (!await this.running.waitForIdle(this.settings.closeTimeoutMs)) {
      this.logger.warn(`Queue ${this.name}: ${this.running.count} job(s) still running after ${
        this.settings.closeTimeoutMs} ms; they run again after a restart`);
    }
    try {
      await this.journal?.close();
    } finally {
      await this.lock?.release();
    }
  }

  private async open(): Promise<void> {
    this.lock = await DirectoryLock.acquire(this.directory, { fileName: 'lock', label: 'Queue directory', exclusiveInProcess: true });
    try {
      const { journal, records } = await QueueJournal.open(this.directory, this.name, {
        compactMinBytes: this.settings.compactMinBytes,
        compactRatio: this.settings.compactRatio,
        lazyFlushMs: this.settings.lazyFlushMs,
      }, (message): void => {
        this.logger.warn(message);
      });
      this.journal = journal;
      this.replay(records);
      this.recoverInterrupted(journal);
      for (const job of this.pending.values()) {
        this.enqueue(job);
      }
      journal.setCompactionSource({
        liveBytes: (): number => this.pendingBytes + this.deadBytes,
        snapshot: (): string[] => this.snapshot(),
      });
    } catch (error: unknown) {
      await this.journal?.close().catch((): void => undefined);
      await this.lock.release();
      throw error;
    }
  }

  private replay(records: JournalRecord[]): void {
    const durable = Promise.resolve();
    for (const record of records) {
      switch (record.t) {
        case 'a': {
          const dataJson = JSON.stringify(record.d) ?? 'null';
          const existing = this.pending.get(record.id);
          if (existing) {
            this.removePending(existing);
          }
          this.addPending({
            id: record.id,
            dataJson,
            due: record.due,
            failures: record.f,
            interruptions: record.i,
            running: false,
            started: false,
            queued: false,
            durable,
            bytes: LocalJournalQueue.recordBytes(JournalCodec.encodeAdded(record.id, dataJson, record.due, record.f, record.i)),
          });
          break;
        }
        case 's': {
          const job = this.pending.get(record.id);
          if (job) {
            job.started = true;
          }
          break;
        }
        case 'u': {
          const job = this.pending.get(record.id);
          if (job) {
            job.due = record.due;
            job.failures = record.f;
            job.interruptions = record.i;
            job.started = false;
          }
          break;
        }
        case 'c': {
          const job = this.pending.get(record.id);
          if (job) {
            this.removePending(job);
          }
          break;
        }
        case 'x': {
          const job = this.pending.get(record.id);
          if (job) {
            this.removePending(job);
            this.addDead(job.id, job.dataJson, record.f, record.e, record.at);
          }
          break;
        }
        case 'D':
          this.addDead(record.id, JSON.stringify(record.d) ?? 'null', record.f, record.e, record.at);
          break;
        default:
          this.logger.warn(`Queue ${this.name}: skipped a journal record of unknown type ${
            JSON.stringify((record as { t: unknown }).t)}`);
      }
    }
  }

  /** Jobs whose last run began and never ended: the process died under them. */
  private recoverInterrupted(journal: QueueJournal): void {
    for (const job of [ ...this.pending.values() ]) {
      if (!job.started) {
        continue;
      }
      job.started = false;
      job.interruptions += 1;
      if (job.interruptions > this.settings.maxInterruptions) {
        const error = `the process ended during ${job.interruptions} runs of this job`;
        this.logger.warn(`Queue ${this.name}: job ${job.id} is dead: ${error}`);
        this.kill(job, job.failures + job.interruptions, error);
      } else {
        journal.appendLazy(JournalCodec.encode({
          t: 'u', id: job.id, due: job.due, f: job.failures, i: job.interruptions,
        }));
      }
    }
  }

  private snapshot(): string[] {
    const payloads: string[] = [];
    for (const letter of this.dead) {
      payloads.push(JournalCodec.encodeDead(letter.id, letter.dataJson, letter.attempts, letter.error, letter.at));
    }
    for (const job of this.pending.values()) {
      payloads.push(JournalCodec.encodeAdded(job.id, job.dataJson, job.due, job.failures, job.interruptions));
      if (job.running) {
        payloads.push(JournalCodec.encode({ t: 's', id: job.id }));
      }
    }
    return payloads;
  }

  /** Bytes a record takes in the journal. */
  private static recordBytes(payload: string): number {
    return WalFrameCodec.frameBytes(Buffer.byteLength(payload));
  }

  private requireJournal(): QueueJournal {
    if (this.closing || !this.journal) {
      throw new Error(`Queue ${this.name} is closed`);
    }
    return this.journal;
  }

  private addPending(job: PendingJob): void {
    this.pending.set(job.id, job);
    this.pendingBytes += job.bytes;
  }

  private removePending(job: PendingJob): void {
    if (this.pending.get(job.id) === job) {
      this.pending.delete(job.id);
      this.pendingBytes -= job.bytes;
    }
  }

  private addDead(id: string, dataJson: string, attempts: number, error: string, at: number): void {
    const bytes = dataJson.length + id.length + error.length + 64;
    this.dead.push({ id, dataJson, attempts, error, at, bytes });
    this.deadBytes += bytes;
    // Trim in steps so that a full list does not cost a splice per dead job.
    const excess = this.dead.length - this.settings.maxDeadLetters;
    if (excess > 0 && (excess >= 100 || this.dead.length < 1000)) {
      for (const dropped of this.dead.slice(0, excess)) {
        this.deadBytes -= dropped.bytes;
      }
      this.dead = this.dead.slice(excess);
    }
  }

  /** Puts a job that is neither running nor queued where it waits for its due time. */
  private enqueue(job: PendingJob): void {
    if (job.queued || job.running) {
      return;
    }
    job.queued = true;
    if (job.due <= Date.now()) {
      this.ready.push(job);
      this.pump();
    } else {
      this.delayed.push(job.due, job);
      this.armTimer();
    }
  }

  private armTimer(): void {
    const due = this.delayed.peekDue();
    if (this.closing || due === undefined || due >= this.timerDue) {
      return;
    }
    this.clearTimer();
    this.timerDue = due;
    this.timer = setTimeout((): void => this.promoteDue(), Math.min(MAX_TIMER_MS, Math.max(0, due - Date.now())));
    // A delayed job alone does not keep the process alive; close() is what ends a queue.
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.timerDue = Number.POSITIVE_INFINITY;
  }

  private promoteDue(): void {
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    for (const job of this.delayed.popDue(Date.now())) {
      this.ready.push(job);
    }
    this.armTimer();
    this.pump();
  }

  /** Starts due jobs while there are free slots. */
  private pump(): void {
    if (!this.handler || this.closing || !this.journal) {
      return;
    }
    while (this.running.count < this.concurrency && this.readyHead < this.ready.length) {
      const job = this.ready[this.readyHead];
      this.readyHead += 1;
      if (this.pending.get(job.id) === job && job.queued && !job.running) {
        void this.run(job, this.handler, this.journal);
      }
    }
    if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.readyHead);
      this.readyHead = 0;
    }
  }

  private async run(job: PendingJob, handler: JobHandler<T>, journal: QueueJournal): Promise<void> {
    job.queued = false;
    job.running = true;
    this.running.started();
    journal.appendLazy(JournalCodec.encode({ t: 's', id: job.id }));
    let failure: { error: unknown } | undefined;
    try {
      const data = JSON.parse(job.dataJson) as T;
      // Started from add() or another job's end: never within the request that happened to be current.
      await RequestContext.outside(async(): Promise<void> => handler({ id: job.id, queue: this.name, data, attempt: job.failures + 1 }));
    } catch (error: unknown) {
      failure = { error };
    }
    job.running = false;
    this.running.finished();
    // Outcomes reached after close() are not journalled (the journal is closed, or
    // closes before they are written): the job runs again after a restart.
    if (failure) {
      this.fail(job, failure.error, journal);
    } else {
      this.removePending(job);
      journal.appendLazy(JournalCodec.encode({ t: 'c', id: job.id }));
    }
    this.pump();
  }

  private fail(job: PendingJob, error: unknown, journal: QueueJournal): void {
    const attempt = job.failures + 1;
    const message = describeJobError(error);
    if (PermanentJobError.is(error) || !this.retry.shouldRetry(attempt)) {
      this.logger.warn(`Queue ${this.name}: job ${job.id} is dead after ${attempt} attempt(s): ${message}`);
      this.kill(job, attempt, message);
      return;
    }
    job.failures = attempt;
    job.due = Date.now() + this.retry.delay(attempt);
    this.metrics.jobRetried(this.name);
    this.logger.debug(`Queue ${this.name}: job ${job.id} failed (attempt ${attempt}), retry at ${
      new Date(job.due).toISOString()}: ${message}`);
    journal.appendLazy(JournalCodec.encode({
      t: 'u', id: job.id, due: job.due, f: job.failures, i: job.interruptions, e: message,
    }));
    if (!this.closing) {
      this.enqueue(job);
    }
  }

  private kill(job: PendingJob, attempts: number, message: string): void {
    const at = Date.now();
    this.removePending(job);
    this.addDead(job.id, job.dataJson, attempts, message, at);
    this.metrics.jobDead(this.name);
    this.journal?.appendLazy(JournalCodec.encode({ t: 'x', id: job.id, f: attempts, e: message, at }));
  }
}
