import type { Finalizable } from '@solid/community-server';
import IORedis from 'ioredis';
import type { ReadinessCheck } from './ReadinessCheck';

/**
 * Ready when Redis answers PING; wired by the Redis backend (config/parts/backend/redis.json).
 * Uses one connection of its own, opened at the first check; while Redis is away a PING fails at the
 * next failed reconnection (maxRetriesPerRequest 0), and the readiness handler bounds the wait anyway.
 */
export class RedisReadinessCheck implements ReadinessCheck, Finalizable {
  public readonly applies = true;
  private client: IORedis | undefined;

  /**
   * @param redisUrl - redis://host:port[/db]
   * @param name - Key in the readiness answer.
   * @param connectTimeoutMs - How long a connection attempt, and a PING, may take.
   */
  public constructor(
    private readonly redisUrl: string,
    public readonly name = 'redis',
    private readonly connectTimeoutMs = 2000,
  ) {}

  public async check(): Promise<void> {
    this.client ??= this.connect();
    const answer = await this.client.ping();
    if (answer !== 'PONG') {
      throw new Error(`PING answered ${answer}`);
    }
  }

  public async finalize(): Promise<void> {
    this.client?.disconnect();
    this.client = undefined;
  }

  private connect(): IORedis {
    const client = new IORedis(this.redisUrl.trim(), {
      connectTimeout: this.connectTimeoutMs,
      commandTimeout: this.connectTimeoutMs,
      maxRetriesPerRequest: 0,
      // Reconnects in the background, so a check after Redis came back finds it.
      retryStrategy: (): number => 1000,
      // ioredis's timer for a socket that does not close after disconnect() is not cleared when the
      // socket had closed already (Redis away): it kept the process alive 2 s (the default) after finalize().
      disconnectTimeout: 200,
    });
    // Errors are the checks' answers; without a listener ioredis would print them.
    client.on('error', (): void => undefined);
    return client;
  }
}
