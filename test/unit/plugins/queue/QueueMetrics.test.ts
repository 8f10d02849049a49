import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrometheusMetrics } from '../../../../src/plugins/observability/PrometheusMetrics';
import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';
import { LocalJobQueueFactory } from '../../../../src/plugins/queue/LocalJobQueueFactory';
import { RetryPolicy } from '../../../../src/plugins/queue/RetryPolicy';
import { waitFor } from '../../../support/waitFor';

describe('queue metrics (local queues)', (): void => {
  let dataDir: string;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-queue-metrics-'));
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts retries and dead letters per queue, and shows depths on scrape', async(): Promise<void> => {
    const metrics = new PrometheusMetrics(1000, 2000, false);
    const factory = new LocalJobQueueFactory(dataDir, new RetryPolicy(3, 10, 20), metrics);
    const queue = factory.create<{ kind: string }>('work');
    const runs: string[] = [];
    let release = (): void => undefined;
    const held = new Promise<void>((resolve): void => {
      release = resolve;
    });
    queue.process(async({ data, attempt }): Promise<void> => {
      runs.push(`${data.kind}:${attempt}`);
      if (data.kind === 'flaky' && attempt === 1) {
        throw new Error('try again');
      }
      if (data.kind === 'broken') {
        throw new PermanentJobError('never');
      }
      if (data.kind === 'slow') {
        await held;
      }
    }, 4);
    await queue.add({ kind: 'slow' });
    await queue.add({ kind: 'later' }, { delayMs: 60_000 });
    await waitFor((): boolean => runs.includes('slow:1'));
    let { body } = await metrics.expose();
    expect(body).toContain('fedpod_queue_jobs{queue="work",state="active"} 1');
    expect(body).toContain('fedpod_queue_jobs{queue="work",state="delayed"} 1');
    release();
    await queue.add({ kind: 'flaky' });
    await queue.add({ kind: 'broken' });
    await waitFor((): boolean => runs.includes('flaky:2') && runs.includes('broken:1'));
    await waitFor(async(): Promise<boolean> => (await queue.counts()).dead === 1);
    ({ body } = await metrics.expose());
    expect(body).toContain('fedpod_queue_retries_total{queue="work"} 1');
    expect(body).toContain('fedpod_queue_dead_letters_total{queue="work"} 1');
    expect(body).toContain('fedpod_queue_jobs{queue="work",state="dead"} 1');
    await factory.closeAll();
  });
});
