import type { IRateLimiterRes, RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateVerdict } from './RateCounter';

function verdictOf(result: IRateLimiterRes, allowed: boolean): RateVerdict {
  return {
    allowed,
    remaining: allowed ? result.remainingPoints ?? 0 : 0,
    retryAfterSeconds: Math.max(1, Math.ceil((result.msBeforeNext ?? 1000) / 1000)),
  };
}

/**
 * One hit on a rate-limiter-flexible limiter as a verdict: the library rejects with its result when
 * the key is over its limit, and with an Error when its store failed (then the error is thrown).
 */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<RateVerdict> {
  try {
    return verdictOf(await limiter.consume(key), true);
  } catch (error: unknown) {
    if (error instanceof RateLimiterRes) {
      return verdictOf(error, false);
    }
    throw error;
  }
}
