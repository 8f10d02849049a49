import type { JobQueueCounts } from '../observability/Metrics';

// The counts are the metrics' shape: the queue reports into observability, never the reverse.
export type { JobQueueCounts };
/** A job as a handler sees it. */
export interface QueuedJob<T> {
  /** The `jobId` given to add(), or an id the queue generated. */
  id: string;
  /** Name of the queue. */
  queue: string;
  /** The data given to add(), after a JSON round trip (the same before and after a restart). */
  data: T;
  /** 1-based: 1 on the first run, n + 1 after n failed runs. A run cut short by a crash is not counted. */
  attempt: number;
}

/** A job that failed for good: a permanent error, or every attempt used. */
export interface DeadLetter<T> {
  id: string;
  queue: string;
  data: T;
  /** Runs made, the last one included. */
  attempts: number;
  /** Message of the last error. */
  error: string;
  /** ISO 8601 time of the last failure. */
  failedAt: string;
}

export interface JobOptions {
  /** Deduplicates: a job with an id already waiting/active is not added twice. */
  jobId?: string;
  /** Runs the job no earlier than this many milliseconds from now. */
  delayMs?: number;
}

export type JobHandler<T> = (job: QueuedJob<T>) => Promise<void>;


/**
 * A durable job queue. Every accepted job (add() resolved) runs at least once,
 * also across crashes; handlers must therefore be idempotent.
 * Job data must be JSON-serializable.
 */
export interface JobQueue<T> {
  readonly name: string;
  /** Resolves with the job id once the job is durable (fsynced journal / Redis AOF acknowledged). */
  add: (data: T, options?: JobOptions) => Promise<string>;
  /** Starts processing with at most `concurrency` jobs at once. Call once. */
  process: (handler: JobHandler<T>, concurrency: number) => void;
  /** Newest first; `limit` defaults to 100. */
  deadLetters: (limit?: number) => Promise<DeadLetter<T>[]>;
  counts: () => Promise<JobQueueCounts>;
  /** Stops taking jobs, waits for active ones (bounded), closes connections. Jobs not finished run again after restart. */
  close: () => Promise<void>;
}
