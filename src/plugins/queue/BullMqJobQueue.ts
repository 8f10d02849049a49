import { getLoggerFor } from '@solid/community-server';
import { type Job, type JobsOptions, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Metrics } from '../observability/Metrics';
import { NO_METRICS } from '../observability/NoopMetrics';
import { redisReconnectDelay } from '../../util/RedisReconnect';
import type { DeadLetter, JobHandler, JobOptions, JobQueue, JobQueueCounts } from './JobQueue';
import { serviceUnavailable } from '../../util/HttpErrors';
import { PermanentJobError } from './PermanentJobError';
import { RetryPolicy } from './RetryPolicy';
import { describeJobError, RunningJobs } from './RunningJobs';
import { unstorableJob } from './UnstorableJob';
import { settleWithin } from '../../util/Deadline';
import { messageOf } from '../../util/Errors';

export interface BullMqJobQueueOptions {
  /** redis://[user:password@]host:port[/db] */
  redisUrl: string;
  retry?: RetryPolicy;
  /** First part of every Redis key of the queue: `<prefix>:<name>:...`. */
  prefix?: string;
  /**
   * How long a worker's claim on a running job lasts without renewal (it renews at
   * half of it). A worker that dies loses its jobs to the stalled check after this.
   */
  lockDurationMs?: number;
  /** How often a worker looks for jobs whose worker died (stalled), and requeues them. */
  stalledIntervalMs?: number;
  /** A job found stalled more than this many times fails for good (it may be what kills workers). */
  maxStalledCount?: number;
  /** close() waits this long for running jobs; those still running then run again (stalled recovery). */
  closeTimeoutMs?: number;
  /** Failed jobs (dead letters) kept in Redis, the oldest dropped first. */
  maxDeadLetters?: number;
  /** Where retries and dead letters are counted. */
  metrics?: Metrics;
  /** An add() that Redis has not answered by then fails with a 503 (see answeredWithin). Default 10 s. */
  addTimeoutMs?: number;
  /**
   * false: this process only adds jobs; process() starts no worker, other nodes run the jobs
   * (`fedpod start --no-queue-workers`). Default true.
   */
  processJobs?: boolean;
}

/** What a job holds in Redis: the caller's id (when given) and data. */
interface Envelope<T> {
  id?: string;
  d: T;
}


/** Longest wait for one BullMQ close() (worker, then queue) before disconnecting instead. */
const CLOSE_STEP_MS = 3_000;

/** What ioredis says when Redis is not connected (refused, closed, reconnecting). */
const REDIS_AWAY = /enableOfflineQueue|Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|max retries per request/iu;

/**
 * The queue with REDIS_URL: a BullMQ Queue (producer) and, once process() is called,
 * a Worker, both under `<prefix>:<name>` keys.
 *
 * - add() resolves once Redis has answered BullMQ's add script. Durability then is
 *   Redis's: with `appendonly yes`, a killed redis-server keeps every answered write
 *   (it is in the kernel before the reply); surviving a power cut needs
 *   `appendfsync always` (`everysec` may lose the last second).
 * - Retries: `attempts` from the RetryPolicy, waits from its delay() (a custom backoff
 *   strategy, so jitter included). A PermanentJobError becomes BullMQ's
 *   UnrecoverableError: no retry.
 * - Dead letters: jobs failed after their last attempt stay in BullMQ's failed set
 *   (newest `maxDeadLetters`); completed jobs are removed.
 * - `jobId` deduplicates through BullMQ's deduplication (simple mode): a second add
 *   while the first is waiting, delayed or active is dropped; once it completed or
 *   died the id can be added again (so several dead letters may share an id).
 * - A worker that dies mid-job (kill -9) leaves the job locked; after lockDurationMs
 *   a stalled check (every stalledIntervalMs, by any worker of the queue) puts it
 *   back, and it runs again.
 */
export class BullMqJobQueue<T> implements JobQueue<T> {
  protected readonly logger = getLoggerFor(this);

  private readonly retry: RetryPolicy;
  private readonly prefix: string;
  private readonly queue: Queue<Envelope<T>>;
  private worker: Worker<Envelope<T>> | undefined;
  private readonly running = new RunningJobs();
  private closing = false;
  private closed: Promise<void> | undefined;

  public constructor(
    public readonly name: string,
    private readonly options: BullMqJobQueueOptions,
  ) {
    this.retry = options.retry ?? new RetryPolicy();
    this.prefix = options.prefix ?? 'fedpod';
    this.queue = new Queue<Envelope<T>>(name, {
      // No offline queue for the producer: while Redis is away add() fails at once (503 for the
      // client) instead of waiting, unacknowledged, for a reconnection. (An add already on the wire
      // when the connection drops is bounded by add()'s own timeout.)
      connection: { url: options.redisUrl, enableOfflineQueue: false, retryStrategy: redisReconnectDelay },
      prefix: this.prefix,
      defaultJobOptions: {
        attempts: this.retry.attempts,
        backoff: { type: 'fedpod' },
        removeOnComplete: true,
        removeOnFail: { count: options.maxDeadLetters ?? 10_000 },
      },
    });
    this.queue.on('error', (error: Error): void => {
      this.logger.error(`Queue ${name} (Redis): ${error.message}`);
    });
  }

  public get isClosed(): boolean {
    return this.closing;
  }

  /** Not closing, and its worker (once process() was called) running and not paused. */
  public isRunning(): boolean {
    return !this.closing && (!this.worker || (this.worker.isRunning() && !this.worker.isPaused()));
  }

  public async add(data: T, options: JobOptions = {}): Promise<string> {
    if (this.closing) {
      throw new Error(`Queue ${this.name} is closed`);
    }
    const { jobId, delayMs = 0 } = options;
    if (jobId !== undefined && (typeof jobId !== 'string' || jobId.length === 0)) {
      throw new Error('jobId must be a non-empty string');
    }
    if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
      throw new Error(`delayMs must be a finite number >= 0, not ${String(delayMs)}`);
    }
    const envelope: Envelope<T> = { d: data === undefined ? null as T : data };
    const jobOptions: JobsOptions = { delay: Math.round(delayMs) };
    if (jobId !== undefined) {
      envelope.id = jobId;
      jobOptions.deduplication = { id: jobId };
    }
    let job: Job<Envelope<T>>;
    try {
      job = await this.answeredWithin(this.queue.add(this.name, envelope, jobOptions));
    } catch (error: unknown) {
      if (REDIS_AWAY.test(messageOf(error))) {
        // Not accepted, so not acknowledged: the caller answers 503 and its client retries.
        throw serviceUnavailable(`The job queue is not reachable: ${messageOf(error)}`, 'queue_unavailable');
      }
      // BullMQ's JSON.stringify of data too deep or too large: the caller's 4xx, this job alone.
      throw unstorableJob(error);
    }
    return jobId ?? (job.id as string);
  }

  /**
   * The add's answer, or a 503 once `addTimeoutMs` has passed without one: an add on the wire when
   * the connection drops is resent by ioredis after it reconnects, which may be long after the
   * client gave up. Bounded here, around the add alone, rather than by ioredis's
   * maxRetriesPerRequest or commandTimeout, which would apply to every command of the connection.
   * If Redis applies such an add later, the job runs although its client got a 503 and will retry:
   * at least once still holds.
   */
  private async answeredWithin(add: Promise<Job<Envelope<T>>>): Promise<Job<Envelope<T>>> {
    const timeoutMs = this.options.addTimeoutMs ?? 10_000;
    return settleWithin(add, timeoutMs, (): never => {
      throw serviceUnavailable(`The job queue did not answer within ${timeoutMs} ms`, 'queue_unavailable');
    });
  }

  public process(handler: JobHandler<T>, concurrency: number): void {
    if (this.options.processJobs === false) {
      this.logger.info(`Queue ${this.name}: jobs are run by the nodes with queue workers, not this one`);
      return;
    }
    if (this.worker) {
      throw new Error(`Queue ${this.name} already has a handler`);
    }
    if (this.closing) {
      throw new Error(`Queue ${this.name} is closed`);
    }
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`Concurrency must be an integer >= 1, not ${concurrency}`);
    }
    const worker = new Worker<Envelope<T>>(this.name, async(job: Job<Envelope<T>>): Promise<void> => {
      await this.runJob(job, handler);
    }, {
      // A worker's commands wait for the reconnection however long Redis is away, rather than
      // failing after ioredis's 20 attempts (seconds, with the short reconnection delay).
      connection: { url: this.options.redisUrl, retryStrategy: redisReconnectDelay, maxRetriesPerRequest: null },
      prefix: this.prefix,
      concurrency,
      lockDuration: this.options.lockDurationMs ?? 30_000,
      stalledInterval: this.options.stalledIntervalMs ?? 30_000,
      maxStalledCount: this.options.maxStalledCount ?? 3,
      settings: {
        backoffStrategy: (attemptsMade: number): number => this.retry.delay(attemptsMade),
      },
    });
    worker.on('error', (error: Error): void => {
      this.logger.error(`Queue ${this.name} worker (Redis): ${error.message}`);
    });
    const metrics = this.options.metrics ?? NO_METRICS;
    worker.on('failed', (job: Job<Envelope<T>> | undefined, error: Error): void => {
      if (!job) {
        return;
      }
      if (!(error instanceof UnrecoverableError || job.attemptsMade >= this.retry.attempts)) {
        metrics.jobRetried(this.name);
      } else {
        metrics.jobDead(this.name);
        this.logger.warn(`Queue ${this.name}: job ${job.data.id ?? job.id} is dead after ${
          job.attemptsMade} attempt(s): ${error.message}`);
      }
    });
    this.worker = worker;
  }

  public async deadLetters(limit = 100): Promise<DeadLetter<T>[]> {
    if (limit <= 0) {
      return [];
    }
    const jobs = await this.queue.getFailed(0, limit - 1);
    return jobs.filter((job): boolean => Boolean(job)).map((job): DeadLetter<T> => ({
      id: job.data.id ?? (job.id as string),
      queue: this.name,
      data: job.data.d,
      attempts: job.attemptsMade,
      error: job.failedReason,
      failedAt: new Date(job.finishedOn ?? job.processedOn ?? job.timestamp).toISOString(),
    }));
  }

  public async counts(): Promise<JobQueueCounts> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      dead: counts.failed ?? 0,
    };
  }

  public close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (worker) {
      // Fetch no more jobs, give the running ones closeTimeoutMs, then let go of the
      // rest: their locks expire and the stalled check requeues them.
      await worker.pause(true).catch((): void => undefined);
      const timeoutMs = this.options.closeTimeoutMs ?? 10_000;
      if (!await this.running.waitForIdle(timeoutMs)) {
        this.logger.warn(`Queue ${this.name}: ${this.running.count} job(s) still running after ${
          timeoutMs} ms; they run again once their lock expires`);
      }
      await this.bounded('worker', worker.close(this.running.count > 0), async(): Promise<void> => worker.disconnect());
    }
    await this.bounded('queue', this.queue.close(), async(): Promise<void> => this.queue.disconnect());
  }

  /**
   * Waits for a BullMQ close() for at most CLOSE_STEP_MS, then disconnects instead: in rare full
   * test runs a close() never returned, and a stop must not hang on it (what it leaves undone,
   * the stalled check and lock expiry recover).
   */
  private async bounded(what: string, closing: Promise<void>, disconnect: () => Promise<void>): Promise<void> {
    const outcome = await settleWithin(closing.then((): string => 'closed', (error: Error): string => `failed: ${error.message}`),
      CLOSE_STEP_MS, (): string => 'timeout');
    if (outcome === 'closed') {
      return;
    }
    this.logger.warn(`Queue ${this.name}: closing the ${what}: ${outcome === 'timeout' ?
      `no end after ${CLOSE_STEP_MS} ms; disconnecting` : outcome}`);
    await disconnect().catch((): void => undefined);
  }

  private async runJob(job: Job<Envelope<T>>, handler: JobHandler<T>): Promise<void> {
    this.running.started();
    try {
      await handler({
        id: job.data.id ?? (job.id as string),
        queue: this.name,
        data: job.data.d,
        attempt: job.attemptsMade + 1,
      });
    } catch (error: unknown) {
      if (PermanentJobError.is(error)) {
        throw new UnrecoverableError(describeJobError(error));
      }
      throw error instanceof Error ? error : new Error(describeJobError(error));
    } finally {
      this.running.finished();
    }
  }
}
