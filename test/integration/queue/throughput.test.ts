/**
 * Throughput of both queue kinds, printed for the record: acknowledged adds per
 * second with 10 concurrent producers (each awaiting its add before the next), then
 * jobs per second processed (no-op handler, concurrency 10) from that backlog.
 * The floors asserted are far below what a laptop does; they catch only a collapse
 * (say, one fsync per add without group commit on a slow disk).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BullMqJobQueue } from '../../../src/plugins/queue/BullMqJobQueue';
import type { JobQueue } from '../../../src/plugins/queue/JobQueue';
import { LocalJournalQueue } from '../../../src/plugins/queue/LocalJournalQueue';
import { claimRedisDb } from '../../support/env';

const PRODUCERS = 10;
const JOBS = 5000;
const PAYLOAD = { inbox: 'https://remote.example/users/someone/inbox', activity: 'x'.repeat(500) };

interface Measured {
  addsPerSecond: number;
  jobsPerSecond: number;
}

async function measure(queue: JobQueue<typeof PAYLOAD>): Promise<Measured> {
  let next = 0;
  const addStart = performance.now();
  await Promise.all(Array.from({ length: PRODUCERS }, async(): Promise<void> => {
    while (next < JOBS) {
      next += 1;
      await queue.add(PAYLOAD);
    }
  }));
  const addSeconds = (performance.now() - addStart) / 1000;

  let processed = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve): void => {
    finished = resolve;
  });
  const runStart = performance.now();
  queue.process(async(): Promise<void> => {
    processed += 1;
    if (processed === JOBS) {
      finished();
    }
  }, 10);
  await allDone;
  const runSeconds = (performance.now() - runStart) / 1000;
  return { addsPerSecond: Math.round(JOBS / addSeconds), jobsPerSecond: Math.round(JOBS / runSeconds) };
}

function report(kind: string, measured: Measured): void {
  process.stderr.write(`[queue throughput] ${kind}: ${measured.addsPerSecond} acknowledged adds/s ` +
    `(${PRODUCERS} producers), ${measured.jobsPerSecond} jobs/s processed (concurrency 10), ${JOBS} jobs\n`);
}

describe('queue throughput', (): void => {
  it('local journalled queue (fsync per group commit)', async(): Promise<void> => {
    const root = mkdtempSync(join(tmpdir(), 'fedpod-queue-throughput-'));
    const queue = new LocalJournalQueue<typeof PAYLOAD>('throughput', join(root, 'queues', 'throughput'));
    try {
      const measured = await measure(queue);
      report('local', measured);
      expect(measured.addsPerSecond).toBeGreaterThan(200);
      expect(measured.jobsPerSecond).toBeGreaterThan(200);
    } finally {
      await queue.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('BullMQ on the test redis-server (AOF, appendfsync everysec)', async(): Promise<void> => {
    const queue = new BullMqJobQueue<typeof PAYLOAD>('throughput', { redisUrl: claimRedisDb() });
    try {
      const measured = await measure(queue);
      report('bullmq', measured);
      expect(measured.addsPerSecond).toBeGreaterThan(200);
      expect(measured.jobsPerSecond).toBeGreaterThan(100);
    } finally {
      await queue.close();
    }
  });
});
