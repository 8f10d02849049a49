import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateCounter, RateLimit, RateVerdict } from './RateCounter';
import { consume } from './RateVerdicts';

/** Rate limits counted in this process's memory (the local backend: one node). */
export class MemoryRateCounter implements RateCounter {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  public async hit(limit: RateLimit, key: string): Promise<RateVerdict> {
    let limiter = this.limiters.get(limit.name);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: limit.name, points: limit.points, duration: limit.durationSeconds });
      this.limiters.set(limit.name, limiter);
    }
    return consume(limiter, key);
  }
}
