import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BullMqJobQueue } from '../../../../src/plugins/queue/BullMqJobQueue';
import { BullMqJobQueueFactory } from '../../../../src/plugins/queue/BullMqJobQueueFactory';
import { LocalJobQueueFactory } from '../../../../src/plugins/queue/LocalJobQueueFactory';
import { RetryPolicy } from '../../../../src/plugins/queue/RetryPolicy';
import { LocalJournalQueue } from '../../../../src/plugins/queue/LocalJournalQueue';
import { waitFor } from '../../../support/waitFor';

describe('the job queue factories (LocalJobQueueFactory, BullMqJobQueueFactory)', (): void => {
  let dataDir: string;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-queue-factory-'));
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes local journalled queues under <dataDir>/queues/<name>', async(): Promise<void> => {
    const factory = new LocalJobQueueFactory(dataDir);
    const queue = factory.create<{ n: number }>('delivery');
    expect(queue).toBeInstanceOf(LocalJournalQueue);
    expect(queue.name).toBe('delivery');
    expect(factory.create('delivery')).toBe(queue);
    expect(factory.create('inbox')).not.toBe(queue);
    await queue.add({ n: 1 });
    expect(existsSync(join(dataDir, 'queues', 'delivery', 'journal-000000000001.log'))).toBe(true);
    await factory.closeAll();
    await expect(queue.add({ n: 2 })).rejects.toThrow('closed');
    // A closed queue is replaced by a fresh one that sees the same journal.
    const reopened = factory.create<{ n: number }>('delivery');
    expect(reopened).not.toBe(queue);
    expect((await reopened.counts()).waiting).toBe(1);
    await factory.finalize();
  });

  it('passes the retry parameters to its queues', async(): Promise<void> => {
    const factory = new LocalJobQueueFactory(dataDir, new RetryPolicy(2, 10, 20));
    expect(factory.retryPolicy).toEqual(expect.objectContaining({ attempts: 2, baseDelayMs: 10, maxDelayMs: 20 }));
    const queue = factory.create<null>('retry');
    let runs = 0;
    queue.process(async(): Promise<void> => {
      runs += 1;
      throw new Error('no');
    }, 1);
    await queue.add(null);
    await waitFor(async(): Promise<boolean> => (await queue.counts()).dead === 1);
    expect(runs).toBe(2);
    await factory.closeAll();
  });

  it('makes BullMQ queues (connecting lazily)', async(): Promise<void> => {
    const factory = new BullMqJobQueueFactory('redis://127.0.0.1:1/0');
    const queue = factory.create('delivery');
    expect(queue).toBeInstanceOf(BullMqJobQueue);
    expect(factory.create('delivery')).toBe(queue);
    await factory.closeAll();
  });

  it('gives its BullMQ queues the claim duration, also as the stalled check\'s interval (30 s unless set)', async(): Promise<void> => {
    const set = new BullMqJobQueueFactory('redis://127.0.0.1:1/0', undefined, undefined, true, 2_000);
    expect((set.create('delivery') as BullMqJobQueue<unknown>)['options']).toEqual(expect.objectContaining({ lockDurationMs: 2_000, stalledIntervalMs: 2_000 }));
    const unset = new BullMqJobQueueFactory('redis://127.0.0.1:1/0');
    expect((unset.create('delivery') as BullMqJobQueue<unknown>)['options']).toEqual(expect.objectContaining({ lockDurationMs: 30_000, stalledIntervalMs: 30_000 }));
    await set.closeAll();
    await unset.closeAll();
  });

  it('starts no worker for process() on a node without queue workers', async(): Promise<void> => {
    const factory = new BullMqJobQueueFactory('redis://127.0.0.1:1/0', undefined, undefined, false);
    const queue = factory.create('delivery') as BullMqJobQueue<unknown>;
    queue.process(async(): Promise<void> => undefined, 1);
    // A second process() would throw on a queue that has a worker.
    expect((): void => queue.process(async(): Promise<void> => undefined, 1)).not.toThrow();
    expect(queue.isRunning()).toBe(true);
    await factory.closeAll();
  });

  it('refuses names that are not safe as a directory or key part', (): void => {
    for (const factory of [ new LocalJobQueueFactory(dataDir), new BullMqJobQueueFactory('redis://127.0.0.1:1/0') ]) {
      for (const name of [ '', '../x', 'a/b', 'a b', '.hidden', 'a:b' ]) {
        expect((): unknown => factory.create(name)).toThrow('Invalid queue name');
      }
    }
  });
});
