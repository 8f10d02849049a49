import type { Collections } from '../../../storage/Collections';
import { idOf, isObject, typeOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { ActorUrls } from '../ActorUrls';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Accept or Reject of a local actor's Follow, by the followed actor: Accept adds the sender to the
 * follower's `following`, Reject removes it. The Follow is the embedded object, or the one stored here.
 */
export class FollowAnswerReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Accept', 'Reject' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly activities: ActivityRepository, private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender, now }: ReceivedActivity): Promise<void> {
    const objectId = idOf(activity.object);
    const follow = isObject(activity.object) && typeOf(activity.object) === 'Follow' ?
      activity.object :
      objectId ? await this.activities.read(objectId) : undefined;
    const follower = follow ? idOf(follow.actor) : undefined;
    const username = follower ? this.urls.usernameOf(follower) : undefined;
    if (!follow || typeOf(follow) !== 'Follow' || !username || idOf(follow.object) !== sender) {
      return;
    }
    const following = this.urls.collection(username, 'following');
    if (typeOf(activity) === 'Accept') {
      await this.collections.add(following, sender, now);
    } else {
      await this.collections.remove(following, sender);
    }
  }
}
