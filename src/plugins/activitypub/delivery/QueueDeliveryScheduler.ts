import type { JobQueueFactory } from '../../queue/JobQueueFactory';
import type { Json } from '../ActivityJson';
import type { DeliveryScheduler } from '../DeliveryScheduler';
import type { FanOutJob } from './DeliveryJobs';
import { QUEUES } from './DeliveryJobs';

/**
 * Schedules delivery as one durable fan-out job per activity; resolving addressees into inboxes
 * happens in the worker, so posting to an outbox costs one queue write however many followers.
 */
export class QueueDeliveryScheduler implements DeliveryScheduler {
  public constructor(private readonly queues: JobQueueFactory) {}

  public async schedule(activity: Json, senderUsername: string, recipients: string[]): Promise<void> {
    const id = activity.id as string;
    await this.queues.create<FanOutJob>(QUEUES.fanOut).add({ activity: id, sender: senderUsername, recipients },
      { jobId: `fanout:${id}` });
  }
}
