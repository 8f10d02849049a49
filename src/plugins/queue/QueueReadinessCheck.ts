import type { JobQueueFactory } from './JobQueueFactory';
import type { ReadinessCheck } from '../observability/ReadinessCheck';

/**
 * Ready when the server's job queues are open and processing (none stopped, closed or failed to
 * open). A setup that makes no queue (`ldp`: no federation, no webhooks) is ready: the queues that
 * exist are made while the server starts, before `/readyz` is served.
 */
export class QueueReadinessCheck implements ReadinessCheck {
  public readonly applies = true;

  /**
   * @param queues - The factory that made the server's queues.
   * @param name - Key in the readiness answer.
   */
  public constructor(
    private readonly queues: JobQueueFactory,
    public readonly name = 'queues',
  ) {}

  public async check(): Promise<void> {
    const states = this.queues.states();
    const stopped = states.filter((state): boolean => !state.running).map((state): string => state.name);
    if (stopped.length > 0) {
      throw new Error(`not running: ${stopped.join(', ')}`);
    }
  }
}
