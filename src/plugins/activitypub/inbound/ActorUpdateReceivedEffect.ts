import { idOf } from '../ActivityJson';
import type { RemoteActorCache } from '../fetch/RemoteActorCache';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Update of an actor by itself (a new name, avatar, inbox or key): this node drops its cached copy
 * and keys, so the next signature of that actor is checked against the key it now publishes. (The
 * updated object itself is stored with every Update, as for any object of its sender.)
 */
export class ActorUpdateReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Update' ];

  public constructor(private readonly actors: RemoteActorCache) {
    super();
  }

  public async apply({ activity, sender }: ReceivedActivity): Promise<void> {
    if (idOf(activity.object) === sender) {
      this.actors.forget(sender);
    }
  }
}
