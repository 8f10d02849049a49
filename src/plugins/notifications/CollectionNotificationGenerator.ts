import type { NotificationHandlerInput } from '@solid/community-server';
import { AS, NotFoundHttpError, NotificationGenerator } from '@solid/community-server';

type Notification = Awaited<ReturnType<NotificationGenerator['handle']>>;

/**
 * CSS's notification generators read the topic from CSS's store (for its state, an ETag). An
 * ActivityPub collection (an inbox, an outbox, followers) is not an LDP resource there, so its
 * changes would be dropped: for a topic CSS's store does not have, the notification is made here,
 * with the activity, the topic and the time, and without a state.
 */
export class CollectionNotificationGenerator extends NotificationGenerator {
  /** @param source - CSS's generators. */
  public constructor(private readonly source: NotificationGenerator) {
    super();
  }

  public override async canHandle(input: NotificationHandlerInput): Promise<void> {
    await this.source.canHandle(input);
  }

  public async handle(input: NotificationHandlerInput): Promise<Notification> {
    try {
      return await this.source.handle(input);
    } catch (error: unknown) {
      if (!NotFoundHttpError.isInstance(error) || !input.activity) {
        throw error;
      }
      return {
        '@context': [ 'https://www.w3.org/ns/activitystreams', 'https://www.w3.org/ns/solid/notification/v1' ],
        id: `urn:${Date.now()}:${input.topic.path}`,
        type: input.activity.value.slice(AS.namespace.length),
        object: input.topic.path,
        published: new Date().toISOString(),
      };
    }
  }
}
