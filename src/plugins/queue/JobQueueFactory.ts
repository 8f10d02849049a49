import type { Metrics, QueueDepth } from '../observability/Metrics';
import { NO_METRICS } from '../observability/NoopMetrics';
import type { JobQueue } from './JobQueue';
import { RetryPolicy } from './RetryPolicy';

/** Queue names become directory names and Redis key parts. */
const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/u;

/** What the factory needs of the queues it owns beyond JobQueue. */
export interface OwnedJobQueue<T> extends JobQueue<T> {
  readonly isClosed: boolean;
  isRunning: () => boolean;
}

/**
 * Makes the server's job queues (delivery, inbox, webhooks, ...), all of one backend: each
 * subclass makes one kind (LocalJobQueueFactory, BullMqJobQueueFactory), and the config part of
 * the backend (config/parts/backend/) says which one the server has.
 *
 * Retries: `attempts` runs in all, waits from `baseDelayMs` doubling up to
 * `maxDelayMs` (with jitter); the defaults spread 15 runs over about 48 h.
 *
 * finalize() (CSS's Finalizable) closes every queue: wire it into the finalizers.
 */
export abstract class JobQueueFactory {
  protected readonly retry: RetryPolicy;
  protected readonly metrics: Metrics;
  private readonly queues = new Map<string, OwnedJobQueue<unknown>>();

  /**
   * @param retry - when a failed job runs again, and how often (`fedpod start --retry-base-delay` sets
   *   its first wait); the default: 15 runs from 30 s, waits capped at 12 h
   * @param metrics - where the queues count retries and dead letters, and where their depths are read
   */
  protected constructor(retry: RetryPolicy = new RetryPolicy(), metrics: Metrics = NO_METRICS) {
    this.retry = retry;
    this.metrics = metrics;
    metrics.watchQueues(async(): Promise<QueueDepth[]> => this.depths());
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
      queue = this.open(name);
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

  /** A new queue of this (checked) name. */
  protected abstract open(name: string): OwnedJobQueue<unknown>;
}
