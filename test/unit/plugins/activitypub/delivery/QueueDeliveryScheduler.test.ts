import { QUEUES } from '../../../../../src/plugins/activitypub/delivery/DeliveryJobs';
import type { FanOutJob } from '../../../../../src/plugins/activitypub/delivery/DeliveryJobs';
import { QueueDeliveryScheduler } from '../../../../../src/plugins/activitypub/delivery/QueueDeliveryScheduler';
import type { JobOptions, JobQueue } from '../../../../../src/plugins/queue/JobQueue';
import type { JobQueueFactory } from '../../../../../src/plugins/queue/JobQueueFactory';

interface AddedJob {
  queue: string;
  data: unknown;
  options?: JobOptions;
}

/** A JobQueueFactory whose queues only record what is added to them (data after a JSON round trip). */
class RecordingQueueFactoryFake {
  public readonly added: AddedJob[] = [];
  public failWith?: Error;

  public create<T>(name: string): JobQueue<T> {
    const queue = {
      name,
      add: async(data: T, options?: JobOptions): Promise<string> => {
        if (this.failWith) {
          throw this.failWith;
        }
        this.added.push({ queue: name, data: JSON.parse(JSON.stringify(data)) as unknown, options });
        return options?.jobId ?? `generated-${this.added.length}`;
      },
      process: (): void => {
        throw new Error('not used by the scheduler');
      },
      deadLetters: async(): Promise<never[]> => [],
      counts: async(): Promise<never> => {
        throw new Error('not used by the scheduler');
      },
      close: async(): Promise<void> => undefined,
    };
    return queue;
  }
}

const ACTIVITY = {
  id: 'https://pod.example/activities/1',
  type: 'Create',
  actor: 'https://pod.example/actors/alice',
  object: { id: 'https://pod.example/objects/1', type: 'Note', content: 'Hello' },
};

describe('QueueDeliveryScheduler', (): void => {
  let queues: RecordingQueueFactoryFake;
  let scheduler: QueueDeliveryScheduler;

  beforeEach((): void => {
    queues = new RecordingQueueFactoryFake();
    scheduler = new QueueDeliveryScheduler(queues as unknown as JobQueueFactory);
  });

  it('adds one fan-out job per activity, keyed by the activity id, with the recipients', async(): Promise<void> => {
    const recipients = [ 'https://www.w3.org/ns/activitystreams#Public', 'https://pod.example/actors/alice/followers',
      'https://remote.example/users/bob' ];
    await scheduler.schedule(ACTIVITY, 'alice', recipients);
    expect(queues.added).toEqual([{
      queue: QUEUES.fanOut,
      data: { activity: ACTIVITY.id, sender: 'alice', recipients } satisfies FanOutJob,
      options: { jobId: `fanout:${ACTIVITY.id}` },
    }]);
  });

  it('uses the ap-fanout queue', async(): Promise<void> => {
    await scheduler.schedule(ACTIVITY, 'alice', [ 'https://remote.example/users/bob' ]);
    expect(queues.added.map((job): string => job.queue)).toEqual([ 'ap-fanout' ]);
  });

  it('keeps the job payload small: the activity by id, not the document', async(): Promise<void> => {
    await scheduler.schedule(ACTIVITY, 'alice', [ 'https://remote.example/users/bob' ]);
    expect(JSON.stringify(queues.added[0].data)).not.toContain('Hello');
  });

  it('adds a job even with no recipients, and one job per scheduled activity', async(): Promise<void> => {
    await scheduler.schedule(ACTIVITY, 'alice', []);
    await scheduler.schedule({ ...ACTIVITY, id: 'https://pod.example/activities/2' }, 'bob', [ 'https://x.example/u' ]);
    expect(queues.added.map((job): unknown => [ job.data, job.options?.jobId ])).toEqual([
      [{ activity: ACTIVITY.id, sender: 'alice', recipients: []}, 'fanout:https://pod.example/activities/1' ],
      [{ activity: 'https://pod.example/activities/2', sender: 'bob', recipients: [ 'https://x.example/u' ]},
        'fanout:https://pod.example/activities/2' ],
    ]);
  });

  it('gives the same job id when an activity is scheduled twice, so the queue can deduplicate', async(): Promise<void> => {
    await scheduler.schedule(ACTIVITY, 'alice', [ 'https://remote.example/users/bob' ]);
    await scheduler.schedule(ACTIVITY, 'alice', [ 'https://remote.example/users/bob' ]);
    const [ first, second ] = queues.added;
    expect(first.options?.jobId).toBe(second.options?.jobId);
  });

  it('rejects when the queue refuses the job', async(): Promise<void> => {
    queues.failWith = new Error('journal closed');
    await expect(scheduler.schedule(ACTIVITY, 'alice', [])).rejects.toThrow('journal closed');
  });
});
