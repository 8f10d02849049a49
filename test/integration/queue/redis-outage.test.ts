/**
 * BullMqJobQueue while its Redis is away: add() refuses at once with a 503 error (it is not
 * accepted, so it is not acknowledged) instead of waiting for a reconnection, and once Redis is back
 * the queue accepts again within seconds and the worker runs every job accepted before and after.
 * A private redis-server (appendfsync always), since this test stops it.
 */
import { BullMqJobQueue } from '../../../src/plugins/queue/BullMqJobQueue';
import { redisReconnectDelay } from '../../../src/util/RedisReconnect';
import { RetryPolicy } from '../../../src/plugins/queue/RetryPolicy';
import { startRedis, type RedisServer } from '../../support/redis';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('BullMqJobQueue across a Redis restart', () => {
  let redis: RedisServer | undefined;
  let queue: BullMqJobQueue<{ n: number }> | undefined;

  beforeAll(async() => {
    redis = await startRedis({ appendfsync: 'always' });
  });

  afterAll(async() => {
    await queue?.close();
    await redis?.stop();
  });

  it('reconnects with short, capped waits', () => {
    expect([ 1, 2, 3, 4, 5, 6, 50 ].map(redisReconnectDelay)).toEqual([ 100, 200, 400, 800, 1600, 2000, 2000 ]);
  });

  it('refuses add() with 503 queue_unavailable while Redis is down and runs every accepted job after', async() => {
    const ran = new Set<number>();
    // Short locks: a job the worker had fetched when Redis went (its answer lost) is picked up again by
    // the stalled check once its lock expires; with the default 30 s lock that can outlast the wait below.
    queue = new BullMqJobQueue<{ n: number }>('outage', { redisUrl: redis!.url, retry: new RetryPolicy(5, 50, 1000, 0),
      lockDurationMs: 1_000, stalledIntervalMs: 300 });
    queue.process(async(job) => {
      ran.add(job.data.n);
    }, 2);
    const accepted: number[] = [];
    for (let n = 0; n < 10; n++) {
      await queue.add({ n });
      accepted.push(n);
    }

    await redis!.stop();
    const refusal = await queue.add({ n: -1 }).then(() => undefined, (error: unknown) => error);
    expect(refusal).toMatchObject({ statusCode: 503, errorCode: 'queue_unavailable' });

    await redis!.restart();
    // Accepted again once the connection is back (bounded: the test's timeout).
    for (let n = 100; ; await sleep(100)) {
      const added = await queue.add({ n }).then(() => true, () => false);
      if (added) {
        accepted.push(n);
        break;
      }
    }
    for (let n = 101; n < 105; n++) {
      await queue.add({ n });
      accepted.push(n);
    }
    for (let waited = 0; accepted.some((n) => !ran.has(n)) && waited < 300; waited++) await sleep(100);
    expect(accepted.filter((n) => !ran.has(n))).toEqual([]);
    expect(ran.has(-1)).toBe(false);
  }, 90_000);

  it('fails an add() that Redis does not answer in time with 503, whether Redis hangs or dies with the add in flight', async() => {
    // Its own redis-server: this test stops and kills it under the queue.
    const own = await startRedis({ appendfsync: 'always' });
    const hung = new BullMqJobQueue<{ n: number }>('hung', { redisUrl: own.url, addTimeoutMs: 3_000 });
    try {
      await hung.add({ n: 0 });
      // A stopped (not dead) redis-server keeps the connection open and never answers.
      process.kill(own.pid, 'SIGSTOP');
      const started = Date.now();
      const timedOut = await hung.add({ n: 1 }).then(() => undefined, (error: unknown) => error);
      expect(timedOut).toMatchObject({ statusCode: 503, errorCode: 'queue_unavailable' });
      expect(Date.now() - started).toBeLessThan(8_000);

      // Sent, unanswered, and then the server dies: ioredis would resend it once reconnected, for as
      // long as Redis is away; the client gets its 503 within the add timeout instead.
      const sentAt = Date.now();
      const inFlight = hung.add({ n: 2 }).then(() => undefined, (error: unknown) => error);
      await sleep(100);
      await own.kill9();
      expect(await inFlight).toMatchObject({ statusCode: 503, errorCode: 'queue_unavailable' });
      expect(Date.now() - sentAt).toBeLessThan(8_000);
      // And it accepts again once Redis is back.
      await own.restart();
      for (let tries = 0; !await hung.add({ n: 3 }).then(() => true, () => false); tries++) {
        expect(tries).toBeLessThan(100);
        await sleep(100);
      }
    } finally {
      await hung.close();
      await own.stop();
    }
  }, 60_000);
});
