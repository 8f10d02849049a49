import { getLoggerFor } from '@solid/community-server';
import type { JobQueueFactory } from '../../plugins/queue/JobQueueFactory';
import { messageOf } from '../../util/Errors';
import { serviceUnavailable } from '../../util/HttpErrors';
import type { Admission } from './Admission';

/**
 * Load shedding for a route that feeds a queue (the inbox): while the queue holds more than
 * `maxBacklog` jobs due or running (on every node, with Redis), requests are answered 503 with
 * Retry-After before their body is read or their signature checked, and the senders deliver again
 * later (Mastodon, Misskey and Fedify retry a 503). So a flood that outpaces processing cannot grow
 * the queue without bound, and what was accepted is still processed.
 *
 * The backlog is read at most every `refreshMs`, in the background: a request waits for a reading
 * only when there has been none.
 */
export class QueueBacklogAdmission implements Admission {
  protected readonly logger = getLoggerFor(this);
  /** Jobs due or running at the last reading; undefined when it could not be read. */
  private backlog?: number;
  private readAt?: number;
  private reading?: Promise<void>;

  /**
   * @param queues - The queues.
   * @param queue - Name of the queue the route feeds, e.g. `inbox`.
   * @param maxBacklog - Jobs due or running past which requests are refused.
   * @param retryAfterSeconds - The refusal's Retry-After.
   * @param refreshMs - How long one reading of the backlog serves.
   */
  public constructor(
    private readonly queues: JobQueueFactory,
    private readonly queue: string,
    private readonly maxBacklog = 20_000,
    private readonly retryAfterSeconds = 30,
    private readonly refreshMs = 500,
  ) {}

  public async admit(): Promise<void> {
    if (this.readAt === undefined || Date.now() - this.readAt >= this.refreshMs) {
      this.reading ??= this.read().finally((): void => {
        this.reading = undefined;
      });
      if (this.readAt === undefined) {
        await this.reading;
      }
    }
    if (this.backlog !== undefined && this.backlog > this.maxBacklog) {
      throw serviceUnavailable(`${this.backlog} received requests are waiting to be processed; ` +
        `send again in ${this.retryAfterSeconds} s.`, 'busy', this.retryAfterSeconds);
    }
  }

  private async read(): Promise<void> {
    try {
      const counts = await this.queues.create(this.queue).counts();
      this.backlog = counts.waiting + counts.active;
    } catch (error: unknown) {
      // The queue's own add() answers 503 while its store is away: nothing to shed here.
      this.logger.warn(`The ${this.queue} queue's backlog could not be read: ${messageOf(error)}`);
      this.backlog = undefined;
    }
    this.readAt = Date.now();
  }
}
