import type { ChangeCounter } from './ChangeCounter';

/**
 * The ChangeCounter the deployment needs, chosen once from the Redis URL: in Redis when there is
 * one (nodes on several hosts share it), else in the data directory (one host).
 */
export class ChangeCounterSwitch implements ChangeCounter {
  private readonly counter: ChangeCounter;

  /**
   * @param redisUrl - The server's Redis URL; '' (or blanks) for none.
   * @param redisCounter - Used when there is a Redis URL.
   * @param fileCounter - Used otherwise.
   */
  public constructor(redisUrl: string, redisCounter: ChangeCounter, fileCounter: ChangeCounter) {
    this.counter = redisUrl.trim() === '' ? fileCounter : redisCounter;
  }

  public async read(): Promise<string> {
    return this.counter.read();
  }

  public async bump(): Promise<void> {
    return this.counter.bump();
  }
}
