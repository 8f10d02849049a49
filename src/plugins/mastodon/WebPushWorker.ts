import { Initializer } from '@solid/community-server';
import type { WebPushDelivery } from './WebPushDelivery';

/**
 * At start-up: runs the Web Push queue, so pushes accepted before a stop or a crash are sent.
 * The queue factory closes the queue at shutdown.
 */
export class WebPushWorker extends Initializer {
  public constructor(private readonly delivery: WebPushDelivery, private readonly concurrency = 4) {
    super();
  }

  public async handle(): Promise<void> {
    this.delivery.queue.process(async(job): Promise<void> => this.delivery.run(job), this.concurrency);
  }
}
