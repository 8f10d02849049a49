import type { ReadinessCheck } from './ReadinessCheck';

/**
 * Fills a readiness slot that a configuration leaves empty: the local backend
 * (config/parts/backend/local.json) has no service of its own to check, where the Redis backend
 * checks Redis. Never applies, so it is left out of the readiness answer.
 */
export class AbsentReadinessCheck implements ReadinessCheck {
  public readonly applies = false;

  /**
   * @param name - Key the check would have in the readiness answer.
   */
  public constructor(public readonly name = 'backend') {}

  public async check(): Promise<void> {
    // Nothing to check.
  }
}
