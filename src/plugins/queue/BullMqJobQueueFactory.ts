import type { Metrics } from '../observability/Metrics';
import { BullMqJobQueue } from './BullMqJobQueue';
import { JobQueueFactory } from './JobQueueFactory';
import type { OwnedJobQueue } from './JobQueueFactory';
import type { RetryPolicy } from './RetryPolicy';

/**
 * The Redis backend's queues (config/parts/backend/redis.json): BullMQ queues shared by every
 * node on that Redis, so a node may only add jobs and leave running them to the others.
 */
export class BullMqJobQueueFactory extends JobQueueFactory {
  /**
   * @param redisUrl - redis://host:port[/db]; connections open on first use
   * @param retry - when a failed job runs again, and how often
   * @param metrics - where the queues count retries and dead letters, and where their depths are read
   * @param processJobs - false: this node only adds jobs and nodes with workers run them
   * @param lockDurationMs - how long a worker's claim on a running job lasts unrenewed, and how often
   *   workers look for lapsed claims: a job whose worker died runs again within twice this
   */
  public constructor(
    private readonly redisUrl: string,
    retry?: RetryPolicy,
    metrics?: Metrics,
    private readonly processJobs = true,
    private readonly lockDurationMs = 30_000,
  ) {
    super(retry, metrics);
  }

  protected open(name: string): OwnedJobQueue<unknown> {
    return new BullMqJobQueue<unknown>(name, { redisUrl: this.redisUrl.trim(), retry: this.retry, metrics: this.metrics,
      processJobs: this.processJobs, lockDurationMs: this.lockDurationMs, stalledIntervalMs: this.lockDurationMs });
  }
}
