/**
 * BullMqJobQueue against the run's real redis-server (AOF on), each file in its
 * own logical database (claimRedisDb).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { BullMqJobQueue, type BullMqJobQueueOptions } from '../../../src/plugins/queue/BullMqJobQueue';
import type { QueuedJob } from '../../../src/plugins/queue/JobQueue';
import { PermanentJobError } from '../../../src/plugins/queue/PermanentJobError';
import { RetryPolicy } from '../../../src/plugins/queue/RetryPolicy';
import { BatchingJobQueue, type Batch } from '../../../src/plugins/queue/BatchingJobQueue';
import { deepValue } from '../../support/deepJson';
import { claimRedisDb } from '../../support/env';
import { describeJobQueueContract } from '../../support/jobQueueContract';
import { startRedis } from '../../support/redis';
import { sleep, waitFor } from '../../support/waitFor';

interface Payload {
  n: number;
}

/** 3 runs, waits of 50 ms then 100 ms, no jitter. */
const FAST_RETRY = new RetryPolicy(3, 50, 1000, 0);

describe('BullMqJobQueue (real Redis)', (): void => {
  let redisUrl: string;
  let counter = 0;
  const open: BullMqJobQueue<Payload>[] = [];
  const children: ChildProcess[] = [];

  function makeQueue(options: Partial<BullMqJobQueueOptions> = {}, name = `q${++counter}`): BullMqJobQueue<Payload> {
    const queue = new BullMqJobQueue<Payload>(name, { redisUrl, retry: FAST_RETRY, prefix: 'fedpod-test', ...options });
    open.push(queue);
    return queue;
  }

  async function settled(queue: BullMqJobQueue<Payload>): Promise<boolean> {
    const counts = await queue.counts();
    return counts.waiting + counts.active + counts.delayed === 0;
  }

  beforeAll((): void => {
    redisUrl = claimRedisDb();
  });

  afterEach(async(): Promise<void> => {
    for (const child of children.splice(0)) {
      child.kill('SIGKILL');
    }
    await Promise.all(open.splice(0).map(async(queue): Promise<void> => queue.close()));
  });

  describeJobQueueContract({ makeQueue: (): BullMqJobQueue<Payload> => makeQueue(), retryWaitsMs: [ 50, 100 ] });

  it('keeps its keys under <prefix>:<name> in the claimed database', async(): Promise<void> => {
    const queue = makeQueue({ prefix: 'fedpod-keys' }, 'keys-queue');
    await queue.add({ n: 1 });
    const client = new IORedis(redisUrl);
    try {
      const keys = await client.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key): boolean => key.startsWith('fedpod-keys:keys-queue:')).length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });

  it('refuses with a 400 data too deep to be stored; in a batch, that entry alone', async(): Promise<void> => {
    await expect(makeQueue().add(deepValue(10_000) as Payload)).rejects.toMatchObject({ statusCode: 400, errorCode: 'too_deeply_nested' });
    const inner = new BullMqJobQueue<Batch<Payload>>(`q${++counter}`, { redisUrl, retry: FAST_RETRY, prefix: 'fedpod-test' });
    const batching = new BatchingJobQueue<Payload>(inner, FAST_RETRY);
    try {
      const results = await Promise.allSettled([ batching.add({ n: 1 }), batching.add(deepValue(10_000) as Payload), batching.add({ n: 3 }) ]);
      expect(results.map((result): string => result.status)).toEqual([ 'fulfilled', 'rejected', 'fulfilled' ]);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 400, errorCode: 'too_deeply_nested' });
      const seen: number[] = [];
      batching.process(async(job): Promise<void> => {
        seen.push(job.data.n);
      }, 2);
      await waitFor((): boolean => seen.length === 2);
      expect(seen.sort()).toEqual([ 1, 3 ]);
    } finally {
      await batching.close();
    }
  });

  it('lists dead letters newest first, up to the limit', async(): Promise<void> => {
    const queue = makeQueue();
    queue.process(async(job): Promise<void> => {
      throw new PermanentJobError(`no ${job.data.n}`);
    }, 1);
    for (let n = 1; n <= 4; n += 1) {
      await queue.add({ n });
      await waitFor(async(): Promise<boolean> => (await queue.counts()).dead === n);
      // Distinct finishedOn timestamps.
      await sleep(5);
    }
    expect((await queue.deadLetters(2)).map((letter): number => letter.data.n)).toEqual([ 4, 3 ]);
    expect(await queue.deadLetters(0)).toEqual([]);
  });

  it('accepts any string as jobId, numbers and colons included', async(): Promise<void> => {
    const queue = makeQueue();
    const seen: string[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push(job.id);
    }, 1);
    for (const jobId of [ '123', 'a:b', 'urn:x:y:z', 'ü/✓ ?#' ]) {
      expect(await queue.add({ n: 1 }, { jobId })).toBe(jobId);
    }
    await waitFor((): boolean => seen.length === 4);
    expect(seen.sort()).toEqual([ '123', 'a:b', 'urn:x:y:z', 'ü/✓ ?#' ]);
  });

  it('runs a delayed job no earlier than its delay and counts it as delayed', async(): Promise<void> => {
    const queue = makeQueue();
    const start = Date.now();
    await queue.add({ n: 1 }, { delayMs: 400 });
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 1, dead: 0 });
    const seen: number[] = [];
    queue.process(async(): Promise<void> => {
      seen.push(Date.now());
    }, 1);
    await waitFor((): boolean => seen.length === 1);
    expect(seen[0] - start).toBeGreaterThanOrEqual(390);
  });

  it('close() waits for running jobs, bounded, and the unfinished ones run again', async(): Promise<void> => {
    const name = `close-${++counter}`;
    const options = { closeTimeoutMs: 200, lockDurationMs: 1000, stalledIntervalMs: 300 };
    const queue = makeQueue(options, name);
    let release!: () => void;
    const stuck = new Promise<void>((resolve): void => {
      release = resolve;
    });
    let finished = 0;
    queue.process(async(job): Promise<void> => {
      await (job.id === 'slow' ? stuck : sleep(20));
      finished += 1;
    }, 2);
    await queue.add({ n: 1 }, { jobId: 'quick' });
    await queue.add({ n: 2 }, { jobId: 'slow' });
    await waitFor(async(): Promise<boolean> => (await queue.counts()).active === 2);
    const start = Date.now();
    await queue.close();
    // closeTimeoutMs for the running job, then BullMQ's own closes, each cut off after 3 s by a
    // disconnect (a BullMQ close() that never returned was seen in rare full runs).
    expect(Date.now() - start).toBeLessThan(200 + 2 * 3_000 + 1_000);
    expect(finished).toBe(1);
    release();

    const next = makeQueue(options, name);
    const seen: QueuedJob<Payload>[] = [];
    next.process(async(job): Promise<void> => {
      seen.push(job);
    }, 1);
    await waitFor((): boolean => seen.length === 1);
    expect(seen[0]).toEqual(expect.objectContaining({ id: 'slow', attempt: 1 }));
  });

  it('runs a job again after its worker process is killed with SIGKILL in the middle of it', async(): Promise<void> => {
    const name = `stalled-${++counter}`;
    const lockDurationMs = 1000;
    const stalledIntervalMs = 300;
    const producer = makeQueue({}, name);
    await producer.add({ n: 42 }, { jobId: 'survivor' });

    const child = spawn(process.execPath, [ join(__dirname, 'support', 'bullmqWorkerChild.js'),
      JSON.stringify({ redisUrl, name, prefix: 'fedpod-test', lockDurationMs, stalledIntervalMs }) ], {
      stdio: [ 'ignore', 'pipe', 'pipe' ],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer): void => {
      output += chunk.toString('utf8');
    });
    child.stderr!.on('data', (chunk: Buffer): void => {
      output += chunk.toString('utf8');
    });
    await waitFor((): boolean => output.includes('START survivor 1'), 30_000);
    expect((await producer.counts()).active).toBe(1);
    child.kill('SIGKILL');
    await new Promise((resolve): void => {
      child.on('exit', resolve);
    });

    const killedAt = Date.now();
    const worker = makeQueue({ lockDurationMs, stalledIntervalMs }, name);
    const seen: QueuedJob<Payload>[] = [];
    worker.process(async(job): Promise<void> => {
      seen.push(job);
    }, 1);
    await waitFor((): boolean => seen.length === 1, 20_000);
    // A crashed run does not count as a failed attempt.
    expect(seen[0]).toEqual({ id: 'survivor', queue: name, data: { n: 42 }, attempt: 1 });
    const recoveryMs = Date.now() - killedAt;
    expect(recoveryMs).toBeLessThan(10_000);
    await waitFor(async(): Promise<boolean> => settled(worker));
    expect((await worker.counts()).dead).toBe(0);
  });

  it('keeps every acknowledged job when redis-server is killed with SIGKILL right after', async(): Promise<void> => {
    // A private redis (AOF on, appendfsync everysec as in production defaults).
    const redis = await startRedis();
    try {
      const queue = makeQueue({ redisUrl: redis.url }, 'aof');
      let next = 0;
      const acked: string[] = [];
      await Promise.all(Array.from({ length: 10 }, async(): Promise<void> => {
        while (next < 1000) {
          next += 1;
          acked.push(await queue.add({ n: next }, { jobId: `aof-${next}` }));
        }
      }));
      await redis.kill9();
      await redis.restart();
      // The same queue reconnects by itself.
      await waitFor(async(): Promise<boolean> => {
        try {
          return (await queue.counts()).waiting === 1000;
        } catch {
          return false;
        }
      }, 20_000);
      const seen = new Set<string>();
      queue.process(async(job): Promise<void> => {
        seen.add(job.id);
      }, 10);
      await waitFor((): boolean => seen.size === 1000, 20_000);
      expect([ ...seen ].sort()).toEqual([ ...acked ].sort());
      await queue.close();
    } finally {
      await redis.stop();
    }
  });
});
