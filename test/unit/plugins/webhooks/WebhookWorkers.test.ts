import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Batch } from '../../../../src/plugins/queue/BatchingJobQueue';
import { BatchingJobQueue } from '../../../../src/plugins/queue/BatchingJobQueue';
import { LocalJournalQueue } from '../../../../src/plugins/queue/LocalJournalQueue';
import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';
import { RetryPolicy } from '../../../../src/plugins/queue/RetryPolicy';
import type { WebhookAction, WebhookActionInput } from '../../../../src/plugins/webhooks/WebhookAction';
import { WebhookActionRegistry } from '../../../../src/plugins/webhooks/WebhookActionRegistry';
import type { WebhookJob, WebhookService } from '../../../../src/plugins/webhooks/WebhookService';
import { WebhookWorkers } from '../../../../src/plugins/webhooks/WebhookWorkers';
import { waitFor } from '../../../support/waitFor';

function job(n: number, action = 'record'): WebhookJob {
  return { id: `wh-${n}`, hook: 'k', user: 'https://pod.example/actors/alice', username: 'alice', action, data: { n },
    receivedAt: new Date().toISOString() };
}

describe('WebhookWorkers (over a real journalled queue)', () => {
  let root: string;
  let queue: BatchingJobQueue<WebhookJob>;
  let workers: WebhookWorkers;
  let accepted: number;
  let running: number;
  let most: number;
  let ran: WebhookActionInput[];

  const record: WebhookAction = { name: 'record', run: async(input): Promise<void> => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((resolve): void => {
      setTimeout(resolve, 20);
    });
    running -= 1;
    ran.push(input);
  } };
  const broken: WebhookAction = { name: 'broken', run: async(): Promise<void> => {
    throw new PermanentJobError('bad data');
  } };

  beforeEach(async() => {
    root = mkdtempSync(join(tmpdir(), 'fedpod-webhook-workers-'));
    const retry = new RetryPolicy(2, 10, 100, 0);
    queue = new BatchingJobQueue<WebhookJob>(new LocalJournalQueue<Batch<WebhookJob>>('webhooks', root, { retry }), retry);
    accepted = 0;
    running = 0;
    most = 0;
    ran = [];
    // The service as the workers use it: its queue and its count of accepted POSTs.
    const service = { queue, get acceptedCount(): number {
      return accepted;
    } } as unknown as WebhookService;
    workers = new WebhookWorkers(service, new WebhookActionRegistry([ record, broken ]), 8, 2, 100, 50);
    await workers.handle();
  });

  afterEach(async() => {
    await workers.finalize();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs each job\'s action with user, data and the job id', async() => {
    await queue.add(job(1));
    await waitFor((): boolean => ran.length === 1);
    expect(ran[0]).toMatchObject({ user: 'https://pod.example/actors/alice', username: 'alice', data: { n: 1 }, jobId: 'wh-1' });
  });

  it('runs many actions at once when quiet, and at most burstConcurrency while POSTs pour in', async() => {
    await Promise.all(Array.from({ length: 32 }, async(_, n): Promise<string> => queue.add(job(n))));
    await waitFor((): boolean => ran.length === 32);
    expect(most).toBe(8);
    // A burst: far more than 100 POSTs/s counted over the next samples.
    const burst = setInterval((): void => {
      accepted += 20;
    }, 10);
    try {
      await new Promise((resolve): void => {
        setTimeout(resolve, 150);
      });
      most = 0;
      await Promise.all(Array.from({ length: 32 }, async(_, n): Promise<string> => queue.add(job(100 + n))));
      await waitFor((): boolean => ran.length === 64);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      clearInterval(burst);
    }
    // Quiet again: back to full concurrency.
    await new Promise((resolve): void => {
      setTimeout(resolve, 150);
    });
    most = 0;
    await Promise.all(Array.from({ length: 32 }, async(_, n): Promise<string> => queue.add(job(200 + n))));
    await waitFor((): boolean => ran.length === 96);
    expect(most).toBe(8);
  });

  it('makes a dead letter of a permanent failure and of an action that is not configured', async() => {
    await Promise.all([ queue.add(job(1, 'broken')), queue.add(job(2, 'gone')), queue.add(job(3)) ]);
    await waitFor(async(): Promise<boolean> => (await queue.deadLetters()).length === 2);
    const dead = await queue.deadLetters();
    expect(dead.map((letter): string => letter.data.action).sort()).toEqual([ 'broken', 'gone' ]);
    expect(ran.map((input): string => input.jobId)).toEqual([ 'wh-3' ]);
  });
});
