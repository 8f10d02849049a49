import type { Collections } from '../../../storage/Collections';
import { idOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import type { RemoteActorCache } from '../fetch/RemoteActorCache';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Delete, by the object's owner (checked before): a stored copy of the object becomes a Tombstone.
 * An actor deleting itself also leaves every local actor's followers and following, and this node's
 * cache of actors; what it sent stays in the inboxes that received it.
 */
export class DeleteReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Delete' ];

  public constructor(
    private readonly activities: ActivityRepository,
    private readonly collections: Collections,
    private readonly actors: RemoteActorCache,
  ) {
    super();
  }

  public async apply({ activity, sender, now }: ReceivedActivity): Promise<void> {
    const objectId = idOf(activity.object);
    if (!objectId) {
      return;
    }
    if (objectId === sender) {
      this.actors.forget(sender);
      for (const collection of await this.collections.collectionsContaining(sender, '/followers', '/following')) {
        await this.collections.remove(collection, sender);
      }
      return;
    }
    await this.activities.tombstone(objectId, now);
  }
}
