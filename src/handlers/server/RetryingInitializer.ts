import { getLoggerFor, Initializer } from '@solid/community-server';
import { messageOf } from '../../util/Errors';

/**
 * A start-up step that waits out a slow or busy dependency instead of ending the process: the
 * wrapped initializer is run again after each failure (waits doubling from `firstDelayMs` up to
 * `maxDelayMs`) until it succeeds or `boundMs` have passed since its first try, and only then fails
 * start-up, naming the step and its last error. While an attempt takes long (a lock another node
 * holds, a store that answers late) an info line every `noticeMs` says what start-up is waiting for;
 * each failure is a warn line with its error and the next try. The wrapped steps are idempotent (they
 * create what is missing), so trying again is safe.
 */
export class RetryingInitializer extends Initializer {
  protected readonly logger = getLoggerFor(this);

  /**
   * @param initializer - The step.
   * @param waitsFor - What the step waits for, as the log lines name it (e.g. "the instance actor (its lock and the store)").
   * @param boundMs - How long to keep trying, from the first try.
   * @param firstDelayMs - The wait after the first failure.
   * @param maxDelayMs - The longest wait between tries.
   * @param noticeMs - How often a long attempt is reported.
   */
  public constructor(
    private readonly initializer: Initializer,
    private readonly waitsFor: string,
    private readonly boundMs = 180_000,
    private readonly firstDelayMs = 500,
    private readonly maxDelayMs = 15_000,
    private readonly noticeMs = 10_000,
  ) {
    super();
  }

  public async handle(): Promise<void> {
    const start = Date.now();
    const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
    let delay = this.firstDelayMs;
    for (let attempt = 1; ; attempt++) {
      const notice = setInterval((): void => {
        this.logger.info(`Start-up is waiting for ${this.waitsFor} (${seconds(Date.now() - start)} so far)`);
      }, this.noticeMs);
      try {
        await this.initializer.handleSafe();
        if (attempt > 1) {
          this.logger.info(`Start-up: ${this.waitsFor} ready after ${attempt} tries (${seconds(Date.now() - start)})`);
        }
        return;
      } catch (error: unknown) {
        const elapsed = Date.now() - start;
        if (elapsed + delay > this.boundMs) {
          throw new Error(`Start-up gave up on ${this.waitsFor} after ${seconds(elapsed)} and ${attempt} tries: ${messageOf(error)}`,
            { cause: error });
        }
        this.logger.warn(`Start-up: ${this.waitsFor} failed (${messageOf(error)}); trying again in ${seconds(delay)} ` +
          `(for at most ${seconds(this.boundMs)} in all)`);
      } finally {
        clearInterval(notice);
      }
      await new Promise((resolve): void => {
        setTimeout(resolve, delay);
      });
      delay = Math.min(delay * 2, this.maxDelayMs);
    }
  }
}
