import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueReadinessCheck } from '../../../../src/plugins/queue/QueueReadinessCheck';
import { LocalJobQueueFactory } from '../../../../src/plugins/queue/LocalJobQueueFactory';
import type { LocalJournalQueue } from '../../../../src/plugins/queue/LocalJournalQueue';

describe('QueueReadinessCheck', (): void => {
  let dataDir: string;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-queue-ready-'));
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('passes with no queue (a setup without any) and while they run, fails once one is closed', async(): Promise<void> => {
    const factory = new LocalJobQueueFactory(dataDir);
    const check = new QueueReadinessCheck(factory);
    expect(check.name).toBe('queues');
    await expect(check.check()).resolves.toBeUndefined();
    const inbox = factory.create('inbox') as LocalJournalQueue<unknown>;
    const delivery = factory.create('delivery') as LocalJournalQueue<unknown>;
    await Promise.all([ inbox.whenOpen(), delivery.whenOpen() ]);
    await expect(check.check()).resolves.toBeUndefined();
    expect(factory.states()).toEqual([ { name: 'inbox', running: true }, { name: 'delivery', running: true } ]);
    await delivery.close();
    await expect(check.check()).rejects.toThrow('not running: delivery');
    await factory.closeAll();
  });

  it('fails when a queue could not open its journal', async(): Promise<void> => {
    const factory = new LocalJobQueueFactory(dataDir);
    // A second queue of the same name on the same directory cannot take its lock.
    const first = factory.create('inbox') as LocalJournalQueue<unknown>;
    await first.whenOpen();
    const other = new LocalJobQueueFactory(dataDir);
    const second = other.create('inbox') as LocalJournalQueue<unknown>;
    await expect(second.whenOpen()).rejects.toThrow();
    await expect(new QueueReadinessCheck(other).check()).rejects.toThrow('not running: inbox');
    await other.closeAll();
    await factory.closeAll();
  });
});
