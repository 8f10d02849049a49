import { getLoggerFor } from '@solid/community-server';
import type { DeadLetter, JobHandler, JobOptions, JobQueue, JobQueueCounts, QueuedJob } from './JobQueue';
import { PermanentJobError } from './PermanentJobError';
import { RetryPolicy } from './RetryPolicy';
import { messageOf, statusOf } from '../../util/Errors';

/** One job added to a batching queue, as stored inside a batch. */
export interface BatchEntry<T> {
  /** The entry's id: `<batch job id>/<index>`, fixed when the batch was made. */
  id?: string;
  d: T;
  /** Runs this entry had before it was put in this batch (a retried entry travels alone). */
  a?: number;
}

/** What the inner queue holds: several jobs added in the same turn of the event loop. */
export interface Batch<T> {
  batch: BatchEntry<T>[];
}

export interface BatchAddOptions extends JobOptions {
  /** Size of the job's data, when the caller knows it (a request body): batches stay under `maxBatchBytes`. */
  sizeBytes?: number;
}

interface Waiting<T> {
  entry: BatchEntry<T>;
  resolve: (id: string) => void;
  reject: (error: unknown) => void;
}

/**
 * A JobQueue whose add()s made in the same turn of the event loop become ONE job of the queue it
 * wraps, and so one durable write (one Redis script, one journal record) instead of one each. Every
 * add() still resolves only once its batch is durable, so "a 202 means it will run" holds as before.
 * Under load many requests are parsed in one turn: with BullMQ this roughly halves the cost of
 * accepting a job.
 *
 * Each entry runs through the handler on its own. When some entries of a batch fail, each failed one
 * is added again as a batch of one, delayed by the retry policy (and carrying its run count), and
 * the batch completes; only if that add fails does the whole batch run again (at least once).
 * A batch of one is an ordinary job: its failures go to the wrapped queue's retries and dead letters.
 *
 * An entry whose data the wrapped queue cannot store (too deep or too large for JSON.stringify: a
 * 4xx) fails alone: its batch is written again entry by entry (see write()).
 *
 * Not for jobs that need deduplication by jobId (a batch cannot drop one of its entries): a jobId or
 * a delay makes an add() a batch of its own, which the wrapped queue deduplicates.
 */
export class BatchingJobQueue<T> implements JobQueue<T> {
  protected readonly logger = getLoggerFor(this);
  public readonly name: string;
  private waiting: Waiting<T>[] = [];
  private waitingBytes = 0;
  private scheduled = false;
  /** Entries running now, across batches, and how many may (set by process(), changed by setConcurrency()). */
  private running = 0;
  private limit = 1;
  private readonly slotWaiters: (() => void)[] = [];

  /**
   * @param inner - The durable queue that holds the batches.
   * @param retry - Delays for entries that failed inside a batch (as the inner queue's policy).
   * @param maxBatchEntries - Most entries in one batch.
   * @param maxBatchBytes - Most bytes (known sizes) in one batch; a larger entry travels alone.
   */
  public constructor(
    private readonly inner: JobQueue<Batch<T>>,
    private readonly retry = new RetryPolicy(),
    private readonly maxBatchEntries = 64,
    private readonly maxBatchBytes = 1_048_576,
  ) {
    this.name = inner.name;
  }

  public async add(data: T, options: BatchAddOptions = {}): Promise<string> {
    const entry: BatchEntry<T> = { d: data === undefined ? null as T : data };
    if (options.jobId !== undefined || options.delayMs !== undefined) {
      // The wrapped queue checks the options; a job added with an id keeps that id for its handler
      // and in the dead letters, as in any JobQueue.
      if (options.jobId !== undefined) {
        entry.id = options.jobId;
      }
      const id = await this.inner.add({ batch: [ entry ] }, { jobId: options.jobId, delayMs: options.delayMs });
      return options.jobId ?? `${id}/0`;
    }
    const size = options.sizeBytes ?? 0;
    if (this.waiting.length > 0 && this.waitingBytes + size > this.maxBatchBytes) {
      this.flush();
    }
    return new Promise<string>((resolve, reject): void => {
      this.waiting.push({ entry, resolve, reject });
      this.waitingBytes += size;
      if (this.waiting.length >= this.maxBatchEntries || this.waitingBytes >= this.maxBatchBytes) {
        this.flush();
      } else if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O callbacks of this turn: every request parsed in it joins the batch.
        setImmediate((): void => this.flush());
      }
    });
  }

  public process(handler: JobHandler<T>, concurrency: number): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`Concurrency must be an integer >= 1, not ${concurrency}`);
    }
    this.limit = concurrency;
    this.inner.process(async(job): Promise<void> => this.runBatch(job, handler), concurrency);
  }

  public async deadLetters(limit?: number): Promise<DeadLetter<T>[]> {
    return BatchingJobQueue.expandDeadLetters(await this.inner.deadLetters(limit));
  }

  /** Dead batches as the dead entries they hold (a dead batch is nearly always a retried entry alone). */
  public static expandDeadLetters<T>(letters: DeadLetter<Batch<T> | T>[]): DeadLetter<T>[] {
    return letters.flatMap((letter): DeadLetter<T>[] => BatchingJobQueue.entriesOf(letter.data).map((entry, index): DeadLetter<T> => ({
      ...letter,
      id: entry.id ?? `${letter.id}/${index}`,
      data: entry.d,
      attempts: letter.attempts + (entry.a ?? 0),
    })));
  }

  /** Counts of the wrapped queue: batches, not entries. */
  public async counts(): Promise<JobQueueCounts> {
    return this.inner.counts();
  }

  public async close(): Promise<void> {
    // Adds of this turn still get their batch written before the queue closes.
    this.flush();
    await this.inner.close();
  }

  private flush(): void {
    this.scheduled = false;
    const waiting = this.waiting;
    this.waiting = [];
    this.waitingBytes = 0;
    if (waiting.length === 0) {
      return;
    }
    this.write(waiting);
  }

  /**
   * Writes the entries as one batch. When that fails for a reason of the data (any but a 503: the
   * queue's store being away fails every entry alike), each entry is written as a batch of its own,
   * so one entry that cannot be stored (too deep, too large) fails alone and the others are accepted
   * as if they had come alone.
   */
  private write(waiting: Waiting<T>[]): void {
    this.inner.add({ batch: waiting.map((item): BatchEntry<T> => item.entry) }).then((id): void => {
      waiting.forEach((item, index): void => {
        item.entry.id = `${id}/${index}`;
        item.resolve(item.entry.id);
      });
    }, (error: unknown): void => {
      if (waiting.length > 1 && statusOf(error) !== 503) {
        this.logger.warn(`Queue ${this.name}: a batch of ${waiting.length} could not be written (${messageOf(error)}); writing its entries one by one`);
        for (const item of waiting) {
          this.write([ item ]);
        }
        return;
      }
      for (const item of waiting) {
        item.reject(error);
      }
    });
  }

  private async runBatch(job: QueuedJob<Batch<T>>, handler: JobHandler<T>): Promise<void> {
    const entries = BatchingJobQueue.entriesOf(job.data);
    const run = async(entry: BatchEntry<T>, index: number): Promise<void> => {
      // Entries of every batch share `concurrency` slots: batches running together do not multiply it.
      await this.acquire();
      try {
        await handler({
          id: entry.id ?? `${job.id}/${index}`,
          queue: this.name,
          data: entry.d,
          attempt: job.attempt + (entry.a ?? 0),
        });
      } finally {
        this.release();
      }
    };
    if (entries.length === 1) {
      await run(entries[0], 0);
      return;
    }
    const failed: { entry: BatchEntry<T>; index: number; permanent: boolean }[] = [];
    await Promise.all(entries.map(async(entry, index): Promise<void> => {
      try {
        await run(entry, index);
      } catch (error: unknown) {
        failed.push({ entry, index, permanent: PermanentJobError.is(error) });
      }
    }));
    // Failed entries go on alone, with their own retries; a failure to add them fails the batch.
    // (A permanent failure goes at once: alone, it fails again and becomes a dead letter.)
    await Promise.all(failed.map(async({ entry, index, permanent }): Promise<string> => {
      const runs = job.attempt + (entry.a ?? 0);
      return this.inner.add({ batch: [{ id: entry.id ?? `${job.id}/${index}`, d: entry.d, a: runs }] },
        { delayMs: permanent ? 0 : this.retry.delay(runs) });
    }));
  }

  /**
   * Changes how many entries may run at once (at least 1), e.g. fewer while requests pour in so
   * that accepting them keeps the CPU; entries already running finish.
   */
  public setConcurrency(concurrency: number): void {
    this.limit = Math.max(1, Math.floor(concurrency));
    this.wake();
  }

  private async acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running += 1;
      return;
    }
    await new Promise<void>((resolve): void => {
      this.slotWaiters.push(resolve);
    });
  }

  private release(): void {
    this.running -= 1;
    this.wake();
  }

  private wake(): void {
    while (this.running < this.limit && this.slotWaiters.length > 0) {
      this.running += 1;
      this.slotWaiters.shift()!();
    }
  }

  /** The entries of a job: a batch, or (from before batching) a bare job's data. */
  private static entriesOf<T>(data: Batch<T> | T): BatchEntry<T>[] {
    if (typeof data === 'object' && data !== null && Array.isArray((data as Batch<T>).batch)) {
      return (data as Batch<T>).batch;
    }
    return [{ d: data as T }];
  }
}
