/** What a RateCounter says of one hit. */
export interface RateVerdict {
  /** False once the key has used up its hits of the window. */
  allowed: boolean;
  /** Hits left in the window (0 when refused). */
  remaining: number;
  /** Seconds until the window ends and the key may hit again (at least 1). */
  retryAfterSeconds: number;
}

/** One limit: at most `points` hits per key in `durationSeconds`. */
export interface RateLimit {
  /** Names the counters of this limit (a key prefix): two limits with one name would count together. */
  name: string;
  points: number;
  durationSeconds: number;
}

/**
 * Counts hits per key in fixed windows, for rate limits: in this process (MemoryRateCounter, the
 * local backend) or in Redis, shared by every node (RedisRateCounter, the redis backend).
 */
export interface RateCounter {
  hit: (limit: RateLimit, key: string) => Promise<RateVerdict>;
}
