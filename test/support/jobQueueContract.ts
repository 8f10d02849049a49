/**
 * What every JobQueue must do, whatever holds its jobs (the journal of LocalJournalQueue, Redis for
 * BullMqJobQueue): each implementation's test calls describeJobQueueContract() inside its describe().
 */
import type { JobQueue, QueuedJob } from '../../src/plugins/queue/JobQueue';
import { PermanentJobError } from '../../src/plugins/queue/PermanentJobError';
import { overlapProbe } from './overlapProbe';
import { sleep, waitFor } from './waitFor';

export interface ContractPayload {
  n: number;
}

export interface JobQueueContractSettings {
  /** A new queue whose retry policy allows 3 runs with waits of `retryWaitsMs`, without jitter. */
  makeQueue: () => JobQueue<ContractPayload>;
  retryWaitsMs: readonly [ number, number ];
}

/** Timers may fire a little early. */
const TIMER_SLACK_MS = 5;

async function settled(queue: JobQueue<ContractPayload>): Promise<boolean> {
  const counts = await queue.counts();
  return counts.waiting + counts.active + counts.delayed === 0;
}

export function describeJobQueueContract({ makeQueue, retryWaitsMs }: JobQueueContractSettings): void {
  it('runs added jobs with their data, id and attempt number', async(): Promise<void> => {
    const queue = makeQueue();
    const seen: QueuedJob<ContractPayload>[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push(job);
    }, 2);
    const first = await queue.add({ n: 1 });
    const second = await queue.add({ n: 2 }, { jobId: 'https://remote.example/inbox#activity:1' });
    expect(second).toBe('https://remote.example/inbox#activity:1');
    await waitFor((): boolean => seen.length === 2);
    expect(seen).toEqual(expect.arrayContaining([
      { id: first, queue: queue.name, data: { n: 1 }, attempt: 1 },
      { id: second, queue: queue.name, data: { n: 2 }, attempt: 1 },
    ]));
    await waitFor(async(): Promise<boolean> => settled(queue));
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, dead: 0 });
  });

  it('retries a failing job after the backoff, with increasing attempt numbers', async(): Promise<void> => {
    const queue = makeQueue();
    const runs: { attempt: number; at: number }[] = [];
    queue.process(async(job): Promise<void> => {
      runs.push({ attempt: job.attempt, at: Date.now() });
      if (job.attempt < 3) {
        throw new Error(`fail ${job.attempt}`);
      }
    }, 1);
    await queue.add({ n: 1 });
    await waitFor((): boolean => runs.length === 3);
    expect(runs.map((run): number => run.attempt)).toEqual([ 1, 2, 3 ]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(retryWaitsMs[0] - TIMER_SLACK_MS);
    expect(runs[2].at - runs[1].at).toBeGreaterThanOrEqual(retryWaitsMs[1] - TIMER_SLACK_MS);
    await waitFor(async(): Promise<boolean> => settled(queue));
    expect((await queue.counts()).dead).toBe(0);
  });

  it('makes a job a dead letter once its attempts are used up', async(): Promise<void> => {
    const queue = makeQueue();
    let runs = 0;
    queue.process(async(): Promise<void> => {
      runs += 1;
      throw new Error(`boom ${runs}`);
    }, 1);
    await queue.add({ n: 7 }, { jobId: 'doomed' });
    await waitFor(async(): Promise<boolean> => (await queue.counts()).dead === 1);
    expect(runs).toBe(3);
    const [ letter ] = await queue.deadLetters();
    expect(letter).toEqual({
      id: 'doomed', queue: queue.name, data: { n: 7 }, attempts: 3, error: 'boom 3', failedAt: expect.any(String),
    });
    expect(Math.abs(Date.now() - Date.parse(letter.failedAt))).toBeLessThan(5000);
    await waitFor(async(): Promise<boolean> => settled(queue));
  });

  it('sends a job that throws PermanentJobError straight to the dead letters', async(): Promise<void> => {
    const queue = makeQueue();
    let runs = 0;
    queue.process(async(job): Promise<void> => {
      runs += 1;
      throw new PermanentJobError(`410 Gone ${job.data.n}`);
    }, 1);
    await queue.add({ n: 1 }, { jobId: 'gone' });
    await waitFor(async(): Promise<boolean> => (await queue.counts()).dead === 1);
    await sleep(200);
    expect(runs).toBe(1);
    expect(await queue.deadLetters()).toEqual([
      expect.objectContaining({ id: 'gone', attempts: 1, error: '410 Gone 1' }),
    ]);
  });

  it('does not add a job twice while one with the same jobId is pending', async(): Promise<void> => {
    const queue = makeQueue();
    const ids = await Promise.all([
      queue.add({ n: 1 }, { jobId: 'same' }),
      queue.add({ n: 2 }, { jobId: 'same' }),
    ]);
    expect(ids).toEqual([ 'same', 'same' ]);
    expect((await queue.counts()).waiting).toBe(1);
    const seen: number[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((resolve): void => {
      release = resolve;
    });
    queue.process(async(job): Promise<void> => {
      seen.push(job.data.n);
      await blocked;
    }, 2);
    await waitFor((): boolean => seen.length === 1);
    // A running job counts as pending too.
    expect(await queue.add({ n: 3 }, { jobId: 'same' })).toBe('same');
    await sleep(100);
    expect(seen).toEqual([ 1 ]);
    release();
    await waitFor(async(): Promise<boolean> => settled(queue));
    // Once done, the id may be used again.
    await queue.add({ n: 4 }, { jobId: 'same' });
    await waitFor((): boolean => seen.length === 2);
    expect(seen).toEqual([ 1, 4 ]);
  });

  it('runs at most `concurrency` jobs at once', async(): Promise<void> => {
    const queue = makeQueue();
    const probe = overlapProbe(queue, 3, 20);
    await Promise.all(Array.from({ length: 20 }, async(_, n): Promise<string> => queue.add({ n })));
    await waitFor((): boolean => probe.done() === 20);
    expect(probe.most()).toBe(3);
  });

  it('rejects bad options and use after close', async(): Promise<void> => {
    const queue = makeQueue();
    await expect(queue.add({ n: 1 }, { delayMs: -1 })).rejects.toThrow('delayMs');
    await expect(queue.add({ n: 1 }, { jobId: '' })).rejects.toThrow('jobId');
    expect((): void => queue.process(async(): Promise<void> => undefined, 0)).toThrow('Concurrency');
    queue.process(async(): Promise<void> => undefined, 1);
    expect((): void => queue.process(async(): Promise<void> => undefined, 1)).toThrow('already');
    await queue.close();
    await expect(queue.add({ n: 1 })).rejects.toThrow('closed');
  });
}
