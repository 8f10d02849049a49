import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueuedJob } from '../../../../src/plugins/queue/JobQueue';
import { JournalCodec } from '../../../../src/plugins/queue/JournalCodec';
import type { JournalRecord } from '../../../../src/plugins/queue/JournalRecord';
import { LocalJournalQueue, type LocalJournalQueueOptions } from '../../../../src/plugins/queue/LocalJournalQueue';
import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';
import { RetryPolicy } from '../../../../src/plugins/queue/RetryPolicy';
import { WalFrameCodec } from '../../../../src/storage/wal/WalFrameCodec';
import { deepValue } from '../../../support/deepJson';
import { describeJobQueueContract } from '../../../support/jobQueueContract';
import { sleep, waitFor } from '../../../support/waitFor';

interface Payload {
  n: number;
}

/** Retries quickly: 3 runs, waits of 30 ms then 60 ms, no jitter. */
const FAST_RETRY = new RetryPolicy(3, 30, 1000, 0);

const frames = new WalFrameCodec();
const frameRecord = (record: JournalRecord): Buffer => frames.frame(JournalCodec.encode(record));

describe('LocalJournalQueue', (): void => {
  let root: string;
  let dir: string;
  const open: LocalJournalQueue<Payload>[] = [];

  function makeQueue(options: LocalJournalQueueOptions = {}, directory = dir): LocalJournalQueue<Payload> {
    const queue = new LocalJournalQueue<Payload>('test', directory, { retry: FAST_RETRY, ...options });
    open.push(queue);
    return queue;
  }

  function journalFile(): string {
    const name = readdirSync(dir).filter((file): boolean => file.endsWith('.log')).sort().at(-1) as string;
    return join(dir, name);
  }

  beforeEach((): void => {
    root = mkdtempSync(join(tmpdir(), 'fedpod-queue-'));
    dir = join(root, 'queues', 'test');
  });

  afterEach(async(): Promise<void> => {
    await Promise.all(open.splice(0).map(async(queue): Promise<void> => queue.close().catch((): void => undefined)));
    rmSync(root, { recursive: true, force: true });
  });

  describeJobQueueContract({ makeQueue: (): LocalJournalQueue<Payload> => makeQueue(), retryWaitsMs: [ 30, 60 ] });

  it('hands the handler a JSON round trip of the data', async(): Promise<void> => {
    const queue = new LocalJournalQueue<unknown>('test', dir);
    const seen: unknown[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push(job.data);
    }, 1);
    await queue.add({ when: new Date(0), skip: undefined });
    await queue.add(undefined);
    await waitFor((): boolean => seen.length === 2);
    expect(seen).toEqual([{ when: '1970-01-01T00:00:00.000Z' }, null ]);
    await queue.close();
  });

  it('refuses with a 400 data too deep to be journalled, and journals the jobs added beside it', async(): Promise<void> => {
    const queue = makeQueue();
    const results = await Promise.allSettled([ queue.add({ n: 1 }), queue.add(deepValue(10_000) as Payload), queue.add({ n: 3 }) ]);
    expect(results.map((result): string => result.status)).toEqual([ 'fulfilled', 'rejected', 'fulfilled' ]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 400, errorCode: 'too_deeply_nested' });
    await queue.close();
    // Both good jobs are in the journal: a new queue on it runs them.
    const reopened = makeQueue();
    const seen: number[] = [];
    reopened.process(async(job): Promise<void> => {
      seen.push(job.data.n);
    }, 2);
    await waitFor((): boolean => seen.length === 2);
    expect(seen.sort()).toEqual([ 1, 3 ]);
  });

  it('keeps jobs added before process() and runs them once a handler comes', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.add({ n: 1 });
    await queue.add({ n: 2 });
    expect(await queue.counts()).toEqual({ waiting: 2, active: 0, delayed: 0, dead: 0 });
    const seen: number[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push(job.data.n);
    }, 1);
    await waitFor((): boolean => seen.length === 2);
    expect(seen).toEqual([ 1, 2 ]);
  });

  it('shows a job waiting for its retry as delayed', async(): Promise<void> => {
    const queue = makeQueue({ retry: new RetryPolicy(2, 60_000, 60_000, 0) });
    let runs = 0;
    queue.process(async(): Promise<void> => {
      runs += 1;
      throw new Error('later');
    }, 1);
    await queue.add({ n: 1 });
    await waitFor((): boolean => runs === 1);
    await waitFor(async(): Promise<boolean> => (await queue.counts()).delayed === 1);
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 1, dead: 0 });
  });

  it('lists dead letters newest first, up to the limit, and keeps them across a restart', async(): Promise<void> => {
    const queue = makeQueue();
    queue.process(async(job): Promise<void> => {
      throw new PermanentJobError(`no ${job.data.n}`);
    }, 1);
    for (let n = 1; n <= 5; n += 1) {
      await queue.add({ n });
      await waitFor(async(): Promise<boolean> => (await queue.counts()).dead === n);
    }
    expect((await queue.deadLetters(2)).map((letter): number => letter.data.n)).toEqual([ 5, 4 ]);
    await queue.close();
    const reopened = makeQueue();
    expect((await reopened.deadLetters()).map((letter): string => letter.error))
      .toEqual([ 'no 5', 'no 4', 'no 3', 'no 2', 'no 1' ]);
  });

  it('keeps at most maxDeadLetters dead letters', async(): Promise<void> => {
    const queue = makeQueue({ maxDeadLetters: 3 });
    queue.process(async(): Promise<void> => {
      throw new PermanentJobError('no');
    }, 4);
    await Promise.all(Array.from({ length: 6 }, async(_, n): Promise<string> => queue.add({ n })));
    await waitFor(async(): Promise<boolean> => {
      const counts = await queue.counts();
      return counts.waiting + counts.active === 0;
    });
    expect((await queue.counts()).dead).toBe(3);
  });

  it('runs a delayed job no earlier than its delay', async(): Promise<void> => {
    const queue = makeQueue();
    const seen: { n: number; at: number }[] = [];
    queue.process(async(job): Promise<void> => {
      seen.push({ n: job.data.n, at: Date.now() });
    }, 1);
    const start = Date.now();
    await queue.add({ n: 1 }, { delayMs: 150 });
    await queue.add({ n: 2 }, { delayMs: 50 });
    expect((await queue.counts()).delayed).toBeGreaterThanOrEqual(1);
    await waitFor((): boolean => seen.length === 2);
    expect(seen.map((entry): number => entry.n)).toEqual([ 2, 1 ]);
    expect(seen[1].at - start).toBeGreaterThanOrEqual(145);
  });

  it('keeps pending jobs across a restart, with their retry state', async(): Promise<void> => {
    const queue = makeQueue({ retry: new RetryPolicy(5, 200, 200, 0) });
    let runs = 0;
    queue.process(async(): Promise<void> => {
      runs += 1;
      throw new Error('not yet');
    }, 1);
    await queue.add({ n: 1 }, { jobId: 'retrying' });
    await waitFor(async(): Promise<boolean> => (await queue.counts()).delayed === 1);
    await queue.add({ n: 2 }, { jobId: 'later', delayMs: 60_000 });
    await queue.close();

    const reopened = makeQueue({ retry: new RetryPolicy(5, 200, 200, 0) });
    expect(await reopened.counts()).toEqual({ waiting: 0, active: 0, delayed: 2, dead: 0 });
    const seen: QueuedJob<Payload>[] = [];
    reopened.process(async(job): Promise<void> => {
      seen.push(job);
    }, 1);
    await waitFor((): boolean => seen.length === 1);
    expect(seen[0]).toEqual({ id: 'retrying', queue: 'test', data: { n: 1 }, attempt: 2 });
    expect(runs).toBe(1);
    expect((await reopened.counts()).delayed).toBe(1);
  });

  it('runs again a job whose run a crash cut short, and gives up after maxInterruptions', async(): Promise<void> => {
    // Journal of a process that died during runs: `a` then `s` and no outcome.
    const queue = makeQueue();
    await queue.add({ n: 1 }, { jobId: 'crashy' });
    await queue.close();
    const started = frameRecord({ t: 's', id: 'crashy' });
    for (let crash = 1; crash <= 2; crash += 1) {
      appendFileSync(journalFile(), started);
      const reopened = makeQueue({ maxInterruptions: 1 });
      if (crash === 1) {
        // One crash: it is due again.
        expect(await reopened.counts()).toEqual({ waiting: 1, active: 0, delayed: 0, dead: 0 });
        await reopened.close();
      } else {
        // A second crash is one too many.
        expect(await reopened.counts()).toEqual({ waiting: 0, active: 0, delayed: 0, dead: 1 });
        expect((await reopened.deadLetters())[0]).toEqual(expect.objectContaining({
          id: 'crashy', attempts: 2, error: 'the process ended during 2 runs of this job',
        }));
        await reopened.close();
      }
    }
    const last = makeQueue();
    expect((await last.counts()).dead).toBe(1);
  });

  it('cuts a torn tail off the journal and keeps appending after the last whole record', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.add({ n: 1 }, { jobId: 'one' });
    await queue.add({ n: 2 }, { jobId: 'two' });
    await queue.close();
    const whole = statSync(journalFile()).size;
    // Half of a third add, as a crash mid-write leaves it.
    const frame = frames.frame(JournalCodec.encodeAdded('three', '{"n":3}', Date.now(), 0, 0));
    appendFileSync(journalFile(), frame.subarray(0, frame.length - 5));

    const reopened = makeQueue();
    expect((await reopened.counts()).waiting).toBe(2);
    expect(statSync(journalFile()).size).toBe(whole);
    // What was cut is kept aside for an operator.
    expect(readFileSync(`${journalFile()}.cut`)).toEqual(frame.subarray(0, frame.length - 5));
    await reopened.add({ n: 4 }, { jobId: 'four' });
    await reopened.close();

    const again = makeQueue();
    const seen: string[] = [];
    again.process(async(job): Promise<void> => {
      seen.push(job.id);
    }, 1);
    await waitFor((): boolean => seen.length === 3);
    expect(seen).toEqual([ 'one', 'two', 'four' ]);
  });

  it('treats a zero-filled tail (a crash after the file grew) as the end', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.add({ n: 1 });
    await queue.close();
    appendFileSync(journalFile(), Buffer.alloc(4096));
    const reopened = makeQueue();
    expect((await reopened.counts()).waiting).toBe(1);
  });

  it('refuses a journal whose first record is damaged rather than wiping it', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.add({ n: 1 });
    await queue.close();
    const bytes = readFileSync(journalFile());
    bytes[10] ^= 0xff;
    writeFileSync(journalFile(), bytes);
    const reopened = makeQueue();
    await expect(reopened.counts()).rejects.toThrow('starts with an unreadable record');
    expect(readFileSync(journalFile())).toEqual(bytes);
  });

  it('starts afresh from a journal holding only a torn header', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.counts();
    await queue.close();
    const header = readFileSync(journalFile());
    writeFileSync(journalFile(), header.subarray(0, 12));
    const reopened = makeQueue();
    await reopened.add({ n: 1 });
    expect((await reopened.counts()).waiting).toBe(1);
  });

  it('opens a journal written before the queue shared its log code with the store', async(): Promise<void> => {
    // Two jobs delayed by decades, one completed, one dead ('no way'), as an earlier version wrote them.
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'wal', 'journal-000000000001.log'), join(dir, 'journal-000000000001.log'));
    const queue = makeQueue();
    expect(await queue.counts()).toEqual({ waiting: 0, active: 0, delayed: 2, dead: 1 });
    expect(await queue.deadLetters()).toEqual([ expect.objectContaining({ id: 'dead', data: { n: 4 }, error: 'no way' }) ]);
    await queue.add({ n: 5 }, { jobId: 'five', delayMs: 60_000 });
    await queue.close();
    const reopened = makeQueue();
    expect(await reopened.counts()).toEqual({ waiting: 0, active: 0, delayed: 3, dead: 1 });
  });

  it('refuses a journal of another format', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.add({ n: 1 });
    await queue.close();
    writeFileSync(journalFile(), frameRecord({ t: 'h', v: 99, queue: 'test' }));
    const reopened = makeQueue();
    await expect(reopened.counts()).rejects.toThrow('not a version 1 queue journal');
    // The failed open released the lock.
    await reopened.close();
    rmSync(dir, { recursive: true });
    const fresh = makeQueue();
    expect((await fresh.counts()).waiting).toBe(0);
  });

  it('compacts the journal into live records only and loses nothing', async(): Promise<void> => {
    const queue = makeQueue({ compactMinBytes: 16 * 1024, lazyFlushMs: 1 });
    let done = 0;
    queue.process(async(job): Promise<void> => {
      if (job.data.n % 10 === 0) {
        throw new PermanentJobError(`dead ${job.data.n}`);
      }
      done += 1;
    }, 4);
    // 300 jobs done, 30 dead; then 50 that stay pending (delayed).
    for (let batch = 0; batch < 30; batch += 1) {
      await Promise.all(Array.from({ length: 10 }, async(_, index): Promise<string> =>
        queue.add({ n: batch * 10 + index })));
    }
    await waitFor(async(): Promise<boolean> => {
      const counts = await queue.counts();
      return counts.waiting + counts.active === 0 && counts.dead === 30;
    });
    expect(done).toBe(270);
    await Promise.all(Array.from({ length: 50 }, async(_, index): Promise<string> =>
      queue.add({ n: 1000 + index }, { jobId: `keep-${index}`, delayMs: 60_000 })));
    expect(queue.journalStats().compactions).toBeGreaterThanOrEqual(1);
    await queue.compact();
    const compacted = queue.journalStats().bytes;
    await queue.close();
    expect(statSync(journalFile()).size).toBe(compacted);
    // 50 pending + 30 dead letters, about 100 bytes each.
    expect(compacted).toBeLessThan(12 * 1024);
    expect(readdirSync(dir).filter((name): boolean => name.startsWith('journal-'))).toHaveLength(1);

    const reopened = makeQueue();
    expect(await reopened.counts()).toEqual({ waiting: 0, active: 0, delayed: 50, dead: 30 });
    expect((await reopened.deadLetters(1))[0].error).toBe('dead 290');
  });

  it('keeps in the journal a job whose add set off a compaction', async(): Promise<void> => {
    // Every add outgrows the live records, so each one compacts while the journal is idle.
    const queue = makeQueue({ compactMinBytes: 1, compactRatio: 1 });
    for (let n = 0; n < 5; n += 1) {
      await queue.add({ n }, { jobId: `job-${n}`, delayMs: 60_000 });
    }
    expect(queue.journalStats().compactions).toBeGreaterThanOrEqual(1);
    await queue.close();
    const reopened = makeQueue();
    expect(await reopened.counts()).toEqual({ waiting: 0, active: 0, delayed: 5, dead: 0 });
  });

  it('recovers from a crash in the middle of a compaction', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.add({ n: 1 }, { jobId: 'a' });
    await queue.close();
    const current = journalFile();
    // A half-written next journal (never renamed) and a stray temp file.
    writeFileSync(`${current.replace('000000000001', '000000000002')}.tmp`, 'garbage');
    const reopened = makeQueue();
    expect((await reopened.counts()).waiting).toBe(1);
    await reopened.compact();
    await reopened.close();
    expect(readdirSync(dir).sort()).toEqual([ 'journal-000000000002.log' ]);
    // A crash after the rename but before the old journal was deleted: the newer wins.
    writeFileSync(current, readFileSync(join(dir, 'journal-000000000002.log')));
    appendFileSync(current, frameRecord({ t: 'c', id: 'a' }));
    const again = makeQueue();
    expect((await again.counts()).waiting).toBe(1);
    expect(readdirSync(dir).filter((name): boolean => name.endsWith('.log'))).toEqual([ 'journal-000000000002.log' ]);
  });

  it('lets one queue at a time use a directory', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.counts();
    const second = makeQueue();
    await expect(second.counts()).rejects.toThrow('already open in this process');
    await queue.close();
    // Another live process holds it: pid 1 always exists.
    writeFileSync(join(dir, 'lock'), '1 someone\n');
    const third = makeQueue();
    await expect(third.counts()).rejects.toThrow('in use by process 1');
    // A dead process's lock is taken over.
    writeFileSync(join(dir, 'lock'), '999999999 gone\n');
    const fourth = makeQueue();
    expect((await fourth.counts()).waiting).toBe(0);
    await fourth.close();
    expect(readdirSync(dir)).not.toContain('lock');
  });

  it('close() waits for running jobs, bounded, and leaves unfinished ones to run after restart', async(): Promise<void> => {
    const queue = makeQueue({ closeTimeoutMs: 100 });
    let finished = 0;
    let release!: () => void;
    const stuck = new Promise<void>((resolve): void => {
      release = resolve;
    });
    queue.process(async(job): Promise<void> => {
      await (job.id === 'slow' ? stuck : sleep(20));
      finished += 1;
    }, 2);
    await queue.add({ n: 1 }, { jobId: 'quick' });
    await queue.add({ n: 2 }, { jobId: 'slow' });
    await waitFor(async(): Promise<boolean> => (await queue.counts()).active === 2);
    const start = Date.now();
    await queue.close();
    expect(Date.now() - start).toBeLessThan(1000);
    expect(finished).toBe(1);
    // Finishing after close() is not recorded.
    release();
    await sleep(50);
    expect(finished).toBe(2);

    const reopened = makeQueue();
    const seen: QueuedJob<Payload>[] = [];
    reopened.process(async(job): Promise<void> => {
      seen.push(job);
    }, 1);
    await waitFor((): boolean => seen.length === 1);
    expect(seen[0]).toEqual(expect.objectContaining({ id: 'slow', attempt: 1 }));
  });

  it('acknowledges concurrent adds with shared fsyncs (group commit)', async(): Promise<void> => {
    const queue = makeQueue();
    await queue.counts();
    const probe = await openFile(__filename, 'r');
    const fileHandlePrototype = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const datasync = jest.spyOn(fileHandlePrototype, 'datasync');
    try {
      const ids = await Promise.all(Array.from({ length: 200 }, async(_, n): Promise<string> => queue.add({ n })));
      expect(new Set(ids).size).toBe(200);
      // The first add syncs alone, the other 199 wait and share the next sync or so.
      expect(datasync.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(datasync.mock.calls.length).toBeLessThanOrEqual(5);
    } finally {
      datasync.mockRestore();
    }
    await queue.close();
    const { records } = JournalCodec.decode(readFileSync(journalFile()));
    expect(records.filter((record): boolean => record.t === 'a')).toHaveLength(200);
  });
});
