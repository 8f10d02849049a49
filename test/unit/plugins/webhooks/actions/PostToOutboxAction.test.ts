import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { OutboxService } from '../../../../../src/plugins/activitypub/outbound/OutboxService';
import { PermanentJobError } from '../../../../../src/plugins/queue/PermanentJobError';
import { PostToOutboxAction } from '../../../../../src/plugins/webhooks/actions/PostToOutboxAction';
import type { WebhookActionInput } from '../../../../../src/plugins/webhooks/WebhookAction';
import { FedpodHttpError } from '../../../../../src/util/HttpErrors';

const INPUT: WebhookActionInput = { user: 'https://pod.example/actors/alice', username: 'alice',
  data: { type: 'Note', content: 'hi' }, jobId: 'wh-1', receivedAt: '2026-01-01T00:00:00.000Z' };

/** An outbox that answers each post with the next of `answers` (an Error is thrown), recording what was posted. */
function outbox(...answers: (Error | Json)[]): { service: OutboxService; posts: [string, unknown][] } {
  const posts: [string, unknown][] = [];
  const service = {
    post: async(username: string, body: unknown): Promise<Json> => {
      posts.push([ username, body ]);
      const answer = answers.shift();
      if (answer instanceof Error) {
        throw answer;
      }
      return answer ?? { id: 'https://pod.example/activities/1' };
    },
  } as unknown as OutboxService;
  return { service, posts };
}

describe('PostToOutboxAction', (): void => {
  it('posts the data to the user\'s outbox as it came', async(): Promise<void> => {
    const { service, posts } = outbox();
    const action = new PostToOutboxAction(service);
    expect(action.name).toBe('post-to-outbox');
    await expect(action.run(INPUT)).resolves.toBeUndefined();
    expect(posts).toEqual([ [ 'alice', { type: 'Note', content: 'hi' } ] ]);
  });

  it.each([ 400, 403, 404, 422 ])('makes a %i of the outbox a permanent failure, keeping the reason', async(status): Promise<void> => {
    const refusal = new FedpodHttpError(status, 'refused', 'not an object');
    const { service } = outbox(refusal);
    const error = await new PostToOutboxAction(service).run(INPUT).catch((caught: unknown): unknown => caught);
    expect(error).toBeInstanceOf(PermanentJobError);
    expect((error as Error).message).toBe(`The outbox of alice refused the data (${status}): not an object`);
    expect((error as Error).cause).toBe(refusal);
  });

  it.each([
    [ 'a 408', new FedpodHttpError(408, 'timeout', 'slow') ],
    [ 'a 429', new FedpodHttpError(429, 'busy', 'later') ],
    [ 'a 503', new FedpodHttpError(503, 'store_unavailable', 'away') ],
    [ 'an error without a status', new Error('store down') ],
  ])('passes %s on as it is, to be retried', async(what, failure): Promise<void> => {
    const { service } = outbox(failure);
    const error = await new PostToOutboxAction(service).run(INPUT).catch((caught: unknown): unknown => caught);
    expect(error).toBe(failure);
    expect(PermanentJobError.is(error)).toBe(false);
  });

  it('goes by another name when configured so', (): void => {
    expect(new PostToOutboxAction(outbox().service, 'publish').name).toBe('publish');
  });
});
