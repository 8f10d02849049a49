import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Batch } from '../../../../src/plugins/queue/BatchingJobQueue';
import { BatchingJobQueue } from '../../../../src/plugins/queue/BatchingJobQueue';
import type { DeadLetter } from '../../../../src/plugins/queue/JobQueue';
import { LocalJournalQueue } from '../../../../src/plugins/queue/LocalJournalQueue';
import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';
import { readLocalDeadLetters } from '../../../../src/plugins/webhooks/WebhookCli';
import type { WebhookJob } from '../../../../src/plugins/webhooks/WebhookService';
import { WEBHOOK_QUEUE } from '../../../../src/plugins/webhooks/WebhookService';

function job(n: number): WebhookJob {
  return { user: 'https://pod.example/actors/alice', username: 'alice', action: 'store-in-container', data: { n },
    receivedAt: '2026-01-01T00:00:00.000Z' } as unknown as WebhookJob;
}

/** What a listing shows of a dead letter, without its times. */
const shown = (letters: DeadLetter<WebhookJob>[]): unknown[] => letters.map((letter): unknown =>
  ({ id: letter.id, queue: letter.queue, data: letter.data, error: letter.error, attempts: letter.attempts }));

describe('readLocalDeadLetters', (): void => {
  let root: string;
  let directory: string;

  beforeEach((): void => {
    root = mkdtempSync(join(tmpdir(), 'fedpod-webhook-cli-'));
    directory = join(root, 'queues', WEBHOOK_QUEUE);
  });

  afterEach((): void => {
    rmSync(root, { recursive: true, force: true });
  });

  it('lists nothing for a queue that never ran, or whose directory holds no journal', async(): Promise<void> => {
    expect(await readLocalDeadLetters(directory)).toEqual([]);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'notes.txt'), 'x');
    expect(await readLocalDeadLetters(directory)).toEqual([]);
  });

  it('reads the dead letters of the queue\'s journal as the queue itself lists them, newest first', async(): Promise<void> => {
    const queue = new BatchingJobQueue<WebhookJob>(new LocalJournalQueue<Batch<WebhookJob>>(WEBHOOK_QUEUE, directory));
    let handled = 0;
    queue.process(async(queued): Promise<void> => {
      handled += 1;
      const { n } = queued.data.data as { n: number };
      if (n !== 2) {
        throw new PermanentJobError(`refused ${n}`);
      }
    }, 1);
    for (const n of [ 1, 2, 3 ]) {
      await queue.add(job(n));
    }
    let expected: DeadLetter<WebhookJob>[] = [];
    for (let attempt = 0; attempt < 500 && expected.length < 2; attempt += 1) {
      await new Promise((resolve): NodeJS.Timeout => setTimeout(resolve, 10));
      expected = await queue.deadLetters();
    }
    await queue.close();
    expect(handled).toBe(3);
    expect(expected).toHaveLength(2);
    const read = await readLocalDeadLetters(directory);
    expect(shown(read)).toEqual(shown(expected));
    expect(read.map((letter): unknown => (letter.data.data as { n: number }).n)).toEqual([ 3, 1 ]);
    expect(read.map((letter): string => letter.error)).toEqual([ 'refused 3', 'refused 1' ]);
    expect(read.every((letter): boolean => !Number.isNaN(Date.parse(letter.failedAt)))).toBe(true);
    expect(await readLocalDeadLetters(directory, 1)).toHaveLength(1);
  });
});
