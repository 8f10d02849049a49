import type { Finalizable } from '@solid/community-server';
import { getLoggerFor } from '@solid/community-server';
import IORedis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { redisReconnectDelay } from '../../util/RedisReconnect';
import type { RateCounter, RateLimit, RateVerdict } from './RateCounter';
import { consume } from './RateVerdicts';

/**
 * Rate limits counted in Redis, so every node counts the same hits (keys `fedpod:rate:<limit>:<key>`,
 * expiring with their window). While Redis is away each node counts in its own memory instead
 * (rate-limiter-flexible's insurance limiter): a login is neither refused nor let through unlimited
 * because Redis is down. The connection opens on first use.
 */
export class RedisRateCounter implements RateCounter, Finalizable {
  protected readonly logger = getLoggerFor(this);
  private client?: IORedis;
  private readonly limiters = new Map<string, RateLimiterRedis>();

  /**
   * @param redisUrl - redis://[user:password@]host:port[/db]
   */
  public constructor(private readonly redisUrl: string) {}

  public async hit(limit: RateLimit, key: string): Promise<RateVerdict> {
    let limiter = this.limiters.get(limit.name);
    if (!limiter) {
      const settings = { keyPrefix: `fedpod:rate:${limit.name}`, points: limit.points, duration: limit.durationSeconds };
      limiter = new RateLimiterRedis({ ...settings, storeClient: this.connection(), useRedisPackage: false,
        insuranceLimiter: new RateLimiterMemory(settings) });
      this.limiters.set(limit.name, limiter);
    }
    return consume(limiter, key);
  }

  public async finalize(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.limiters.clear();
    if (client) {
      await client.quit().catch((): void => {
        client.disconnect();
      });
    }
  }

  private connection(): IORedis {
    if (!this.client) {
      // One retry: while Redis is away a hit fails soon and the insurance limiter counts it.
      this.client = new IORedis(this.redisUrl, { maxRetriesPerRequest: 1, retryStrategy: redisReconnectDelay });
      this.client.on('error', (error: Error): void => {
        this.logger.error(`Redis (rate limits): ${error.message}`);
      });
    }
    return this.client;
  }
}
