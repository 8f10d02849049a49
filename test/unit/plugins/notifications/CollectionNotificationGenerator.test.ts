import type { NotificationHandlerInput } from '@solid/community-server';
import { AS, InternalServerError, NotFoundHttpError, NotificationGenerator } from '@solid/community-server';
import { CollectionNotificationGenerator } from '../../../../src/plugins/notifications/CollectionNotificationGenerator';

type Notification = Awaited<ReturnType<NotificationGenerator['handle']>>;

/** Stands for CSS's generators: fails as CSS's do for a topic its store lacks. */
class FailingGenerator extends NotificationGenerator {
  public constructor(private readonly error?: Error) {
    super();
  }

  public async handle({ topic }: NotificationHandlerInput): Promise<Notification> {
    if (this.error) {
      throw this.error;
    }
    return { '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://www.w3.org/ns/solid/notification/v1' ],
      id: 'urn:1', type: 'Update', object: topic.path, state: 'etag', published: '2026-01-01T00:00:00Z' };
  }
}

function input(activity = AS.terms.Update): NotificationHandlerInput {
  return { topic: { path: 'https://pod.example/actors/alice/outbox' }, activity,
    channel: { id: 'c', type: 't', topic: 'https://pod.example/actors/alice/outbox' }} as NotificationHandlerInput;
}

describe('CollectionNotificationGenerator', (): void => {
  it('passes on what CSS\'s generators make', async(): Promise<void> => {
    expect((await new CollectionNotificationGenerator(new FailingGenerator()).handle(input())).state).toBe('etag');
  });

  it('makes a notification without a state for a topic CSS\'s store does not have', async(): Promise<void> => {
    const made = await new CollectionNotificationGenerator(new FailingGenerator(new NotFoundHttpError())).handle(input());
    expect(made).toEqual({
      '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://www.w3.org/ns/solid/notification/v1' ],
      id: expect.stringMatching(/^urn:\d+:https:\/\/pod\.example\/actors\/alice\/outbox$/u),
      type: 'Update', object: 'https://pod.example/actors/alice/outbox', published: expect.any(String),
    });
  });

  it('lets other errors through', async(): Promise<void> => {
    await expect(new CollectionNotificationGenerator(new FailingGenerator(new InternalServerError('boom'))).handle(input()))
      .rejects.toThrow('boom');
  });
});
