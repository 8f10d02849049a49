import type { Finalizable } from '@solid/community-server';
import { getLoggerFor, Initializer } from '@solid/community-server';
import type { QueuedJob } from '../queue/JobQueue';
import { PermanentJobError } from '../queue/PermanentJobError';
import type { WebhookActionRegistry } from './WebhookActionRegistry';
import type { WebhookJob, WebhookService } from './WebhookService';

/**
 * Runs the `webhooks` queue (started at server start-up, closed at shutdown): each accepted POST runs
 * its webhook's action with { user, username, data, jobId, receivedAt }. Failures are retried with the
 * queue's backoff; a PermanentJobError, an action no longer configured, or the last attempt makes a
 * dead letter (`fedpod webhooks dead-letters`).
 */
export class WebhookWorkers extends Initializer implements Finalizable {
  protected readonly logger = getLoggerFor(this);

  /**
   * @param service - The webhook service (owns the queue).
   * @param registry - The configured actions.
   * @param concurrency - Jobs run at once.
   */
  public constructor(
    private readonly service: WebhookService,
    private readonly registry: WebhookActionRegistry,
    private readonly concurrency = 16,
  ) {
    super();
  }

  public async handle(): Promise<void> {
    this.service.queue.process(async(job): Promise<void> => this.run(job), this.concurrency);
  }

  public async run(job: QueuedJob<WebhookJob>): Promise<void> {
    const { action: name, user, username, data, receivedAt } = job.data;
    const action = this.registry.get(name);
    try {
      if (!action) {
        throw new PermanentJobError(`Webhook action ${name} is not configured`);
      }
      await action.run({ user, username, data, jobId: job.data.id ?? job.id, receivedAt });
    } catch (error: unknown) {
      const message = `webhook job ${job.data.id ?? job.id} (${name} for ${username}) failed (attempt ${job.attempt}): ${(error as Error).message}`;
      if (PermanentJobError.is(error)) {
        this.logger.warn(`${message}; not retried`);
      } else {
        this.logger.warn(message);
      }
      throw error;
    }
  }

  public async finalize(): Promise<void> {
    await this.service.queue.close();
  }
}
