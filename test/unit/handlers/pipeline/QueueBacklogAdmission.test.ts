import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { QueueBacklogAdmission } from '../../../../src/handlers/pipeline/QueueBacklogAdmission';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import { LocalJobQueueFactory } from '../../../../src/plugins/queue/LocalJobQueueFactory';
import { FedpodHttpError } from '../../../../src/util/HttpErrors';

async function refusal(admission: QueueBacklogAdmission): Promise<FedpodHttpError | undefined> {
  try {
    await admission.admit();
    return undefined;
  } catch (error: unknown) {
    if (error instanceof FedpodHttpError) {
      return error;
    }
    throw error;
  }
}

describe('QueueBacklogAdmission (on a local queue)', () => {
  let dataDir: string;
  let queues: JobQueueFactory;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-admission-'));
    queues = new LocalJobQueueFactory(dataDir);
  });

  afterEach(async() => {
    await queues.closeAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses with 503 and Retry-After while more jobs than the bound wait, and takes requests again once they ran', async() => {
    const queue = queues.create<{ n: number }>('work');
    for (let n = 0; n < 3; n += 1) {
      await queue.add({ n });
    }
    const admission = new QueueBacklogAdmission(queues, 'work', 2, 7, 0);
    const refused = await refusal(admission);
    expect(refused?.statusCode).toBe(503);
    expect(refused?.errorCode).toBe('busy');
    expect(refused?.headers).toEqual({ 'retry-after': '7' });
    expect(refused?.message).toMatch(/^3 received requests are waiting/u);
    expect(await refusal(new QueueBacklogAdmission(queues, 'work', 3, 7, 0))).toBeUndefined();

    const ran: number[] = [];
    queue.process(async(job) => {
      ran.push(job.data.n);
    }, 4);
    for (let waited = 0; ran.length < 3 && waited < 100; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(ran).toHaveLength(3);
    // Read in the background: the request that finds the reading stale is answered from the last one.
    await refusal(admission);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await refusal(admission)).toBeUndefined();
  });

  it('reads the backlog once per interval, however many requests come', async() => {
    const queue = queues.create('work');
    const counts = jest.spyOn(queue, 'counts');
    const admission = new QueueBacklogAdmission(queues, 'work', 10, 30, 60_000);
    await Promise.all(Array.from({ length: 20 }, async() => admission.admit()));
    await admission.admit();
    expect(counts).toHaveBeenCalledTimes(1);
  });

  it('takes requests when the backlog cannot be read (the queue answers for itself)', async() => {
    const blocked = path.join(dataDir, 'not-a-directory');
    fs.writeFileSync(blocked, '');
    const broken = new LocalJobQueueFactory(blocked);
    try {
      // Bound -1: any backlog read would refuse.
      const admission = new QueueBacklogAdmission(broken, 'work', -1, 30, 0);
      const warn = jest.spyOn((admission as unknown as { logger: { warn: (message: string) => void } }).logger, 'warn');
      expect(await refusal(admission)).toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^The work queue's backlog could not be read/u));
    } finally {
      await broken.closeAll().catch(() => undefined);
    }
  });
});
