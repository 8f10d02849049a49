import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Batch } from '../../../../src/plugins/queue/BatchingJobQueue';
import { BatchingJobQueue } from '../../../../src/plugins/queue/BatchingJobQueue';
import type { QueuedJob } from '../../../../src/plugins/queue/JobQueue';
import { LocalJournalQueue } from '../../../../src/plugins/queue/LocalJournalQueue';
import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';
import { RetryPolicy } from '../../../../src/plugins/queue/RetryPolicy';
import { deepValue } from '../../../support/deepJson';
import { describeJobQueueContract } from '../../../support/jobQueueContract';
import { overlapProbe } from '../../../support/overlapProbe';
import { waitFor } from '../../../support/waitFor';

interface Payload {
  n: number;
}

/** Retries quickly: 3 runs, waits of 30 ms then 60 ms, no jitter. */
const FAST_RETRY = new RetryPolicy(3, 30, 1000, 0);

describe('BatchingJobQueue (over a real LocalJournalQueue)', (): void => {
  let root: string;
  const open: { close: () => Promise<void> }[] = [];

  function queues(name = 'batched'): { inner: LocalJournalQueue<Batch<Payload>>; queue: BatchingJobQueue<Payload> } {
    const inner = new LocalJournalQueue<Batch<Payload>>(name, join(root, name), { retry: FAST_RETRY });
    const queue = new BatchingJobQueue<Payload>(inner, FAST_RETRY, 8, 1000);
    open.push(queue);
    return { inner, queue };
  }

  beforeEach((): void => {
    root = mkdtempSync(join(tmpdir(), 'fedpod-batching-'));
  });

  afterEach(async(): Promise<void> => {
    await Promise.all(open.splice(0).map(async(queue): Promise<void> => queue.close().catch((): void => undefined)));
    rmSync(root, { recursive: true, force: true });
  });

  describe('as any JobQueue', (): void => {
    let made = 0;
    describeJobQueueContract({ makeQueue: (): BatchingJobQueue<Payload> => queues(`contract-${++made}`).queue, retryWaitsMs: [ 30, 60 ] });
  });

  it('makes the adds of one turn one durable job, and runs every entry once with its own id', async(): Promise<void> => {
    const { inner, queue } = queues();
    const ids = await Promise.all([ 1, 2, 3, 4, 5 ].map(async(n): Promise<string> => queue.add({ n })));
    expect(new Set(ids).size).toBe(5);
    // One job in the journal holds all five.
    expect(await inner.counts()).toMatchObject({ waiting: 1 });
    const seen: QueuedJob<Payload>[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push(job);
    }, 4);
    await waitFor((): boolean => seen.length === 5);
    expect(seen.map((job): number => job.data.n).sort()).toEqual([ 1, 2, 3, 4, 5 ]);
    expect(seen.map((job): string => job.id).sort()).toEqual([ ...ids ].sort());
    expect(seen.every((job): boolean => job.attempt === 1 && job.queue === 'batched')).toBe(true);
    await waitFor(async(): Promise<boolean> => (await inner.counts()).waiting === 0 && (await inner.counts()).active === 0);
  });

  it('closes a batch at its entry and byte limits', async(): Promise<void> => {
    const { inner, queue } = queues();
    await Promise.all(Array.from({ length: 20 }, async(_, n): Promise<string> => queue.add({ n })));
    // 8 entries per batch: 8 + 8 + 4.
    expect((await inner.counts()).waiting).toBe(3);
    await Promise.all([ 1, 2, 3 ].map(async(n): Promise<string> => queue.add({ n }, { sizeBytes: 600 })));
    // 1,000 bytes per batch: two of 600 bytes cannot share one.
    expect((await inner.counts()).waiting).toBe(6);
  });

  async function addMany(queue: BatchingJobQueue<Payload>, count: number): Promise<void> {
    await Promise.all(Array.from({ length: count }, async(_, n): Promise<string> => queue.add({ n })));
  }

  it('runs at most `concurrency` entries at once, across batches', async(): Promise<void> => {
    const { queue } = queues();
    const probe = overlapProbe(queue, 3, 5);
    await addMany(queue, 30);
    await waitFor((): boolean => probe.done() === 30);
    expect(probe.most()).toBe(3);
  });

  it('changes how many entries run at once while running', async(): Promise<void> => {
    const { queue } = queues();
    const probe = overlapProbe(queue, 4, 5);
    queue.setConcurrency(1);
    await addMany(queue, 16);
    await waitFor((): boolean => probe.done() === 16);
    expect(probe.most()).toBe(1);
    queue.setConcurrency(4);
    probe.reset();
    await addMany(queue, 16);
    await waitFor((): boolean => probe.done() === 32);
    expect(probe.most()).toBe(4);
  });

  it('keeps what was acknowledged across a restart', async(): Promise<void> => {
    const first = queues();
    await Promise.all([ 1, 2, 3 ].map(async(n): Promise<string> => first.queue.add({ n })));
    await first.queue.close();
    const second = queues();
    const seen: number[] = [];
    second.queue.process(async(job): Promise<void> => {
      seen.push(job.data.n);
    }, 2);
    await waitFor((): boolean => seen.length === 3);
    expect(seen.sort()).toEqual([ 1, 2, 3 ]);
  });

  it('retries only the entries that failed, alone, with their run count', async(): Promise<void> => {
    const { queue } = queues();
    const runs = new Map<number, number[]>();
    queue.process(async(job): Promise<void> => {
      runs.set(job.data.n, [ ...runs.get(job.data.n) ?? [], job.attempt ]);
      if (job.data.n === 2 && job.attempt < 2) {
        throw new Error('not yet');
      }
    }, 4);
    await Promise.all([ 1, 2, 3 ].map(async(n): Promise<string> => queue.add({ n })));
    await waitFor((): boolean => (runs.get(2) ?? []).length === 2);
    expect(runs.get(1)).toEqual([ 1 ]);
    expect(runs.get(3)).toEqual([ 1 ]);
    expect(runs.get(2)).toEqual([ 1, 2 ]);
  });

  it('ends failing entries in dead letters, listed one by one', async(): Promise<void> => {
    const { queue } = queues();
    queue.process(async(job): Promise<void> => {
      if (job.data.n === 2) {
        throw new Error('always');
      }
      if (job.data.n === 3) {
        throw new PermanentJobError('never');
      }
    }, 4);
    await Promise.all([ 1, 2, 3 ].map(async(n): Promise<string> => queue.add({ n })));
    await waitFor(async(): Promise<boolean> => (await queue.deadLetters()).length === 2, 10_000);
    const dead = await queue.deadLetters();
    expect(dead.map((letter): number => letter.data.n).sort()).toEqual([ 2, 3 ]);
    expect(dead.find((letter): boolean => letter.data.n === 2)?.attempts).toBeGreaterThanOrEqual(3);
    expect(dead.find((letter): boolean => letter.data.n === 3)?.error).toMatch(/never/u);
  });

  it('runs jobs stored before batching (bare data) as they are', async(): Promise<void> => {
    const { inner, queue } = queues();
    await (inner as unknown as LocalJournalQueue<Payload>).add({ n: 7 });
    const seen: number[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push(job.data.n);
    }, 1);
    await waitFor((): boolean => seen.length === 1);
    expect(seen).toEqual([ 7 ]);
  });

  it('adds a job with a jobId or a delay as a batch of its own', async(): Promise<void> => {
    const { inner, queue } = queues();
    expect(await queue.add({ n: 1 }, { jobId: 'mine' })).toBe('mine');
    await queue.add({ n: 2 }, { delayMs: 50 });
    expect(await inner.counts()).toMatchObject({ waiting: 1, delayed: 1 });
  });

  it('fails alone, with a 400, an entry of a batch that cannot be stored; the others are stored and run', async(): Promise<void> => {
    const { inner, queue } = queues();
    // One turn: one batch of four, whose journal record JSON.stringify cannot write.
    const adds = [ queue.add({ n: 1 }), queue.add(deepValue(10_000) as Payload), queue.add({ n: 3 }), queue.add({ n: 4 }) ];
    const results = await Promise.allSettled(adds);
    expect(results.map((result): string => result.status)).toEqual([ 'fulfilled', 'rejected', 'fulfilled', 'fulfilled' ]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 400, errorCode: 'too_deeply_nested' });
    expect(await inner.counts()).toMatchObject({ waiting: 3 });
    const seen: number[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push(job.data.n);
    }, 4);
    await waitFor((): boolean => seen.length === 3);
    expect(seen.sort()).toEqual([ 1, 3, 4 ]);
    // The queue goes on taking batches.
    await Promise.all([ queue.add({ n: 5 }), queue.add({ n: 6 }) ]);
    await waitFor((): boolean => seen.length === 5);
  });

  it('rejects every add of a batch the wrapped queue refuses', async(): Promise<void> => {
    const { inner, queue } = queues();
    await inner.close();
    await expect(Promise.all([ queue.add({ n: 1 }), queue.add({ n: 2 }) ])).rejects.toThrow(/closed/u);
  });
});
