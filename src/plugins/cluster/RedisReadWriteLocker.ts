import { randomUUID } from 'node:crypto';
import type { Finalizable, PromiseOrValue, ReadWriteLocker, ResourceIdentifier } from '@solid/community-server';
import { getLoggerFor, InternalServerError } from '@solid/community-server';
import IORedis from 'ioredis';
import { redisReconnectDelay } from '../../util/RedisReconnect';
import { serviceUnavailable } from '../../util/HttpErrors';

/** Epoch ms as Redis sees it: every node compares lease ends against one clock. */
const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS[1]: the write lock (a string holding its owner's token, with a lease as TTL);
 * KEYS[2]: the readers (a sorted set of tokens scored by lease end). ARGV: token, lease ms.
 * Readers whose lease ran out (their process died) are dropped before every decision.
 */
const SCRIPTS = {
  fedpodAcquireWrite: `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('ZCARD', KEYS[2]) > 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`,
  fedpodAcquireRead: `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`,
  fedpodRenewWrite: `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`,
  fedpodRenewRead: `if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
${NOW_MS}
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`,
  fedpodReleaseWrite: `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`,
  fedpodReleaseRead: 'return redis.call(\'ZREM\', KEYS[2], ARGV[1])',
} as const;

type ScriptName = keyof typeof SCRIPTS;
type LockScripts = Record<ScriptName, (write: string, read: string, token: string, leaseMs: number) => Promise<number>>;
type Mode = 'Read' | 'Write';

/**
 * CSS's ReadWriteLocker on Redis, for several Fedpod nodes sharing one store: a write excludes
 * every other lock on the same identifier, reads share (readers first, as CSS's own lockers).
 *
 * Unlike CSS's RedisLocker, every lock is a lease owned by a random token: a node that dies holding
 * a lock loses it after `leaseMs` (renewed while the work runs), a release never frees another
 * owner's lock, and nothing is cleared at start-up or shutdown, when other nodes hold live locks.
 * Takes a redis:// URL (database included). The connection opens on first use
 * (config/parts/backend/redis.json wires it).
 */
export class RedisReadWriteLocker implements ReadWriteLocker, Finalizable {
  protected readonly logger = getLoggerFor(this);
  private client: (IORedis & LockScripts) | undefined;
  private finalized = false;

  /**
   * @param redisUrl - redis://[user:password@]host:port[/db]
   * @param leaseMs - How long a lock outlives a node that stopped renewing it.
   * @param maxWaitMs - How long to wait for a lock before failing the operation.
   * @param prefix - First part of every key: `<prefix>:w:<path>`, `<prefix>:r:<path>`.
   */
  public constructor(
    private readonly redisUrl: string,
    private readonly leaseMs = 30_000,
    private readonly maxWaitMs = 60_000,
    private readonly prefix = 'fedpod:lock',
  ) {}

  public async withReadLock<T>(identifier: ResourceIdentifier, whileLocked: () => PromiseOrValue<T>): Promise<T> {
    return this.withLock('Read', identifier, whileLocked);
  }

  public async withWriteLock<T>(identifier: ResourceIdentifier, whileLocked: () => PromiseOrValue<T>): Promise<T> {
    return this.withLock('Write', identifier, whileLocked);
  }

  public async finalize(): Promise<void> {
    this.finalized = true;
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.quit().catch((): void => {
        client.disconnect();
      });
    }
  }

  private async withLock<T>(mode: Mode, identifier: ResourceIdentifier, whileLocked: () => PromiseOrValue<T>): Promise<T> {
    const keys = [ `${this.prefix}:w:${identifier.path}`, `${this.prefix}:r:${identifier.path}` ] as const;
    const token = randomUUID();
    await this.acquire(mode, keys, token, identifier.path);
    const renewal = setInterval((): void => {
      void this.run(`fedpodRenew${mode}`, keys, token).then((renewed): void => {
        if (renewed === 0) {
          this.logger.error(`Lost the ${mode.toLowerCase()} lock on ${identifier.path}: held past its lease (${this.leaseMs} ms) without renewal`);
        }
      }, (error: Error): void => {
        this.logger.warn(`Could not renew the lock on ${identifier.path}: ${error.message}`);
      });
    }, Math.max(1, Math.floor(this.leaseMs / 3)));
    renewal.unref();
    try {
      return await whileLocked();
    } finally {
      clearInterval(renewal);
      // A failed release is not the operation's failure: the lease frees the lock.
      await this.run(`fedpodRelease${mode}`, keys, token).catch((error: Error): void => {
        this.logger.warn(`Could not release the lock on ${identifier.path} (it expires by itself): ${error.message}`);
      });
    }
  }

  /** Tries until it holds the lock: short waits first, longer ones under contention, with jitter. */
  private async acquire(mode: Mode, keys: readonly [string, string], token: string, path: string): Promise<void> {
    const deadline = Date.now() + this.maxWaitMs;
    let wait = 5;
    while (await this.run(`fedpodAcquire${mode}`, keys, token) !== 1) {
      if (Date.now() >= deadline) {
        throw new InternalServerError(`Timed out after ${this.maxWaitMs} ms waiting for the ${mode.toLowerCase()} lock on ${path}`);
      }
      await new Promise((resolve): void => {
        setTimeout(resolve, wait + Math.floor(Math.random() * wait));
      });
      wait = Math.min(wait * 2, 200);
    }
  }

  private async run(script: ScriptName, keys: readonly [string, string], token: string): Promise<number> {
    return this.connection()[script](keys[0], keys[1], token, this.leaseMs).catch((error: Error): never => {
      throw serviceUnavailable(`Redis is not reachable: ${error.message}`, 'redis_unavailable');
    });
  }

  private connection(): IORedis & LockScripts {
    if (this.finalized) {
      throw new Error('The Redis locker is closed');
    }
    if (!this.client) {
      const client = new IORedis(this.redisUrl, { maxRetriesPerRequest: 1, retryStrategy: redisReconnectDelay });
      client.on('error', (error: Error): void => {
        this.logger.error(`Redis (locks): ${error.message}`);
      });
      for (const [ name, lua ] of Object.entries(SCRIPTS)) {
        client.defineCommand(name, { numberOfKeys: 2, lua });
      }
      // defineCommand adds the methods at run time; LockScripts names them for the compiler.
      this.client = client as IORedis & LockScripts;
    }
    return this.client;
  }
}
