import type { Finalizable } from '@solid/community-server';
import { getLoggerFor } from '@solid/community-server';
import IORedis from 'ioredis';
import type { ChangeCounter } from './ChangeCounter';
import { redisReconnectDelay } from '../../util/RedisReconnect';
import { serviceUnavailable } from '../../util/HttpErrors';
import { TurnSharedRead } from '../../util/TurnSharedRead';

/**
 * A ChangeCounter in one Redis key (INCR / GET), shared by every node on that Redis. The
 * connection opens on first use, so a server without Redis can wire this and never use it.
 */
export class RedisChangeCounter implements ChangeCounter, Finalizable {
  protected readonly logger = getLoggerFor(this);
  private client: IORedis | undefined;
  /** Reads asked for in the same turn share one GET, sent after them all (see read()). */
  private readonly shared = new TurnSharedRead<string>(async(): Promise<string> => {
    try {
      return await this.connection().get(this.key) ?? '0';
    } catch (error: unknown) {
      throw serviceUnavailable(`Redis is not reachable: ${(error as Error).message}`, 'redis_unavailable');
    }
  });

  /**
   * @param redisUrl - redis://[user:password@]host:port[/db]
   * @param name - What is counted; the key is `fedpod:changes:<name>`.
   */
  public constructor(
    private readonly redisUrl: string,
    private readonly name: string,
  ) {}

  /**
   * Reads asked for in the same turn of the event loop share one GET, sent after them all (so every
   * read still sees each bump that completed before it was asked for). A webhook lookup reads the
   * counter on every POST: under load this makes it one Redis round trip per turn, not per request.
   */
  public async read(): Promise<string> {
    return this.shared.get();
  }

  public async bump(): Promise<void> {
    await this.connection().incr(this.key);
  }

  public async finalize(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.quit().catch((): void => {
        client.disconnect();
      });
    }
  }

  private get key(): string {
    return `fedpod:changes:${this.name}`;
  }

  private connection(): IORedis {
    if (!this.client) {
      this.client = new IORedis(this.redisUrl, { maxRetriesPerRequest: 1, retryStrategy: redisReconnectDelay });
      this.client.on('error', (error: Error): void => {
        this.logger.error(`Redis (change counter ${this.name}): ${error.message}`);
      });
    }
    return this.client;
  }
}
