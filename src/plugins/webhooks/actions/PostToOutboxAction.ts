import { getLoggerFor } from '@solid/community-server';
import type { OutboxService } from '../../activitypub/outbound/OutboxService';
import { PermanentJobError } from '../../queue/PermanentJobError';
import type { WebhookAction, WebhookActionInput } from '../WebhookAction';
import { messageOf, statusOf } from '../../../util/Errors';

/**
 * `post-to-outbox`: the posted JSON is an activity or a bare object (a Note...) that is posted to the
 * user's outbox, exactly as a POST to /actors/<username>/outbox would be, and so delivered to the
 * fediverse. A refusal by the outbox (a 4xx: not an object, no type, another actor...) is permanent:
 * the job becomes a dead letter at once; other failures are retried.
 *
 * Jobs run at least once: a run cut short by a crash after the post may post it again.
 */
export class PostToOutboxAction implements WebhookAction {
  protected readonly logger = getLoggerFor(this);

  /**
   * @param outbox - The outbox service.
   * @param name - Action name.
   */
  public constructor(
    private readonly outbox: OutboxService,
    public readonly name = 'post-to-outbox',
  ) {}

  public async run({ username, data, jobId }: WebhookActionInput): Promise<void> {
    try {
      const posted = await this.outbox.post(username, data);
      this.logger.debug(`Webhook job ${jobId}: posted ${posted.id} to the outbox of ${username}`);
    } catch (error: unknown) {
      const status = statusOf(error);
      if (typeof status === 'number' && PermanentJobError.isPermanentStatus(status)) {
        throw new PermanentJobError(`The outbox of ${username} refused the data (${status}): ${messageOf(error)}`,
          { cause: error });
      }
      throw error;
    }
  }
}
