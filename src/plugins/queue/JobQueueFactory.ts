import { join } from 'node:path';
import type { Metrics, QueueDepth } from '../observability/Metrics';
import { NO_METRICS } from '../observability/NoopMetrics';
import { BullMqJobQueue } from './BullMqJobQueue';
import type { JobQueue } from './JobQueue';
import { LocalJournalQueue } from './LocalJournalQueue';
import { RetryPolicy } from './RetryPolicy';

/** Queue names become directory names and Redis key parts. */
const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/u;

type OwnedQueue = (LocalJournalQueue<unknown> | BullMqJobQueue<unknown>);

/**
 * Makes the server's job queues (delivery, inbox, webhooks, ...), all of one kind,
 * chosen by configuration: with a Redis URL, BullMQ queues; with an empty one, local
 * journalled queues under `<dataDir>/queues/<name>/` (one process per data dir).
 *
 * Retries: `attempts` runs in all, waits from `baseDelayMs` doubling up to
 * `maxDelayMs` (with jitter); the defaults spread 15 runs over about 48 h.
 *
 * finalize() (CSS's Finalizable) closes every queue: wire it into the finalizers.
 */
export class JobQueueFactory {
  private readonly retry: RetryPolicy;
  private readonly queues = new Map<string, OwnedQueue>();

  /**
   * @param dataDir - data directory; local queues live in its `queues/` folder
   * @param redisUrl - redis://host:port[/db] for BullMQ, or '' for local queues
   * @param retry - when a failed job runs again, and how often (`fedpod start --retry-base-delay` sets
   *   its first wait); the default: 15 runs from 30 s, waits capped at 12 h
   * @param metrics - where the queues count retries and dead letters, and where their depths are read
   * @param processJobs - false: this node only adds jobs and nodes with workers run them (needs Redis)
   */
  public constructor(
    private readonly dataDir: string,
    private readonly redisUrl: string,
    retry: RetryPolicy = new RetryPolicy(),
    private readonly metrics: Metrics = NO_METRICS,
    private readonly processJobs = true,
  ) {
    if (!processJobs && this.kind === 'local') {
      // A local queue is run by the one process that owns its journal; without workers nothing would.
      throw new Error('A node without queue workers needs Redis (--redis-url): its jobs must reach the nodes that run them');
    }
    this.retry = retry;
    metrics.watchQueues(async(): Promise<QueueDepth[]> => this.depths());
  }

  /** 'bullmq' with a Redis URL, else 'local'. */
  public get kind(): 'bullmq' | 'local' {
    return this.redisUrl.trim() === '' ? 'local' : 'bullmq';
  }

  public get retryPolicy(): RetryPolicy {
    return this.retry;
  }

  /** The queue of this name; the same instance for the same name until it is closed. */
  public create<T>(name: string): JobQueue<T> {
    if (!QUEUE_NAME.test(name)) {
      throw new Error(`Invalid queue name ${JSON.stringify(name)}: use letters, digits, '_', '.', '-'`);
    }
    let queue = this.queues.get(name);
    if (!queue || queue.isClosed) {
      queue = this.kind === 'local' ?
        new LocalJournalQueue<unknown>(name, join(this.dataDir, 'queues', name), { retry: this.retry, metrics: this.metrics }) :
        new BullMqJobQueue<unknown>(name,
          { redisUrl: this.redisUrl.trim(), retry: this.retry, metrics: this.metrics, processJobs: this.processJobs });
      this.queues.set(name, queue);
    }
    return queue as JobQueue<T>;
  }

  /** Whether each queue made so far is open and processing (for readiness checks). */
  public states(): { name: string; running: boolean }[] {
    return [ ...this.queues.values() ].map((queue): { name: string; running: boolean } =>
      ({ name: queue.name, running: queue.isRunning() }));
  }

  /** The counts of every queue made so far (for metrics); a queue that cannot tell is left out. */
  public async depths(): Promise<QueueDepth[]> {
    const depths = await Promise.all([ ...this.queues.values() ].map(async(queue): Promise<QueueDepth | undefined> =>
      queue.counts().then((counts): QueueDepth => ({ queue: queue.name, counts }), (): undefined => undefined)));
    return depths.filter((depth): depth is QueueDepth => depth !== undefined);
  }

  /** Closes every queue made (each waits, bounded, for its running jobs). */
  public async closeAll(): Promise<void> {
    const queues = [ ...this.queues.values() ];
    this.queues.clear();
    const results = await Promise.allSettled(queues.map((queue): Promise<void> => queue.close()));
    const failure = results.find((result): boolean => result.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failure) {
      throw failure.reason;
    }
  }

  /** CSS Finalizable. */
  public async finalize(): Promise<void> {
    await this.closeAll();
  }
}
