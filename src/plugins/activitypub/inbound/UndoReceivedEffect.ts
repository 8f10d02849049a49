import type { Collections } from '../../../storage/Collections';
import { idOf, isObject, typeOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { ActorUrls } from '../ActorUrls';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';
import { REACTION_COLLECTIONS } from './ReactionReceivedEffect';

/**
 * Undo, by the actor of the activity it undoes (embedded, or stored here): of a Follow, the follower
 * leaves `followers`; of a Like, Announce, Dislike or EmojiReact, the record leaves the object's collection.
 */
export class UndoReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Undo' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly activities: ActivityRepository, private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender }: ReceivedActivity): Promise<void> {
    const objectId = idOf(activity.object);
    const undone = isObject(activity.object) ? activity.object : objectId ? await this.activities.read(objectId) : undefined;
    if (!undone || idOf(undone.actor) !== sender) {
      return;
    }
    const target = idOf(undone.object);
    const type = typeOf(undone) ?? '';
    const username = target ? this.urls.usernameOf(target) : undefined;
    if (type === 'Follow' && username) {
      await this.collections.remove(this.urls.collection(username, 'followers'), sender);
    } else if (REACTION_COLLECTIONS[type] && target && idOf(undone)) {
      await this.collections.remove(`${target}/${REACTION_COLLECTIONS[type]}`, idOf(undone)!);
    }
  }
}
