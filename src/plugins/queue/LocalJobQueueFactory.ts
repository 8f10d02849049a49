import { join } from 'node:path';
import type { Metrics } from '../observability/Metrics';
import { JobQueueFactory } from './JobQueueFactory';
import type { OwnedJobQueue } from './JobQueueFactory';
import { LocalJournalQueue } from './LocalJournalQueue';
import type { RetryPolicy } from './RetryPolicy';

/**
 * The local backend's queues (config/parts/backend/local.json): journalled queues under
 * `<dataDir>/queues/<name>/`, run by the one process that owns the data directory.
 */
export class LocalJobQueueFactory extends JobQueueFactory {
  /**
   * @param dataDir - data directory; the queues live in its `queues/` folder
   * @param retry - when a failed job runs again, and how often
   * @param metrics - where the queues count retries and dead letters, and where their depths are read
   */
  public constructor(private readonly dataDir: string, retry?: RetryPolicy, metrics?: Metrics) {
    super(retry, metrics);
  }

  protected open(name: string): OwnedJobQueue<unknown> {
    return new LocalJournalQueue<unknown>(name, join(this.dataDir, 'queues', name), { retry: this.retry, metrics: this.metrics });
  }
}
