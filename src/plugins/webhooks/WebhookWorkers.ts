import type { Finalizable } from '@solid/community-server';
import { getLoggerFor, Initializer } from '@solid/community-server';
import type { QueuedJob } from '../queue/JobQueue';
import { PermanentJobError } from '../queue/PermanentJobError';
import type { WebhookActionRegistry } from './WebhookActionRegistry';
import type { WebhookJob, WebhookService } from './WebhookService';
import { messageOf } from '../../util/Errors';

/**
 * Runs the `webhooks` queue (started at server start-up, closed at shutdown): each accepted POST runs
 * its webhook's action with { user, username, data, jobId, receivedAt }. Failures are retried with the
 * queue's backoff; a PermanentJobError, an action no longer configured, or the last attempt makes a
 * dead letter (`fedpod webhooks dead-letters`).
 *
 * Accepting comes first: while POSTs arrive faster than `burstRate` per second, at most
 * `burstConcurrency` actions run at once, so a burst is taken in (durably) at the rate the HTTP side
 * allows and the actions catch up when it is over. Actions never stop altogether.
 */
export class WebhookWorkers extends Initializer implements Finalizable {
  protected readonly logger = getLoggerFor(this);
  private sampler?: NodeJS.Timeout;

  /**
   * @param service - The webhook service (owns the queue).
   * @param registry - The configured actions.
   * @param concurrency - Jobs run at once.
   * @param burstConcurrency - Jobs run at once while POSTs pour in.
   * @param burstRate - POSTs per second (on this node) above which accepting comes first.
   * @param sampleMs - How often the POST rate is measured.
   */
  public constructor(
    private readonly service: WebhookService,
    private readonly registry: WebhookActionRegistry,
    private readonly concurrency = 16,
    private readonly burstConcurrency = 2,
    private readonly burstRate = 500,
    private readonly sampleMs = 250,
  ) {
    super();
  }

  public async handle(): Promise<void> {
    this.service.queue.process(async(job): Promise<void> => this.run(job), this.concurrency);
    let seen = this.service.acceptedCount;
    let bursting = false;
    this.sampler = setInterval((): void => {
      const now = this.service.acceptedCount;
      const rate = (now - seen) * 1000 / this.sampleMs;
      seen = now;
      if (bursting !== rate > this.burstRate) {
        bursting = !bursting;
        this.service.queue.setConcurrency(bursting ? this.burstConcurrency : this.concurrency);
      }
    }, this.sampleMs);
    this.sampler.unref();
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
      const message = `webhook job ${job.data.id ?? job.id} (${name} for ${username}) failed (attempt ${job.attempt}): ${messageOf(error)}`;
      if (PermanentJobError.is(error)) {
        this.logger.warn(`${message}; not retried`);
      } else {
        this.logger.warn(message);
      }
      throw error;
    }
  }

  public async finalize(): Promise<void> {
    clearInterval(this.sampler);
    await this.service.queue.close();
  }
}
