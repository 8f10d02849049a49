import type { Collections } from '../../../storage/Collections';
import { badRequest } from '../../../util/HttpErrors';
import { idOf, typeOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { ActorUrls } from '../ActorUrls';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';

/**
 * Accept and Reject answer a Follow of this actor that it received: the follower joins (Accept) or
 * leaves (Reject) the actor's followers, and the answer embeds the Follow and is addressed to the
 * follower, whose server matches it to its Follow that way.
 */
export class FollowAnswerSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Accept', 'Reject' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly activities: ActivityRepository,
    private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, username, actor, now }: OutgoingActivity): Promise<void> {
    const followId = idOf(activity.object)!;
    const follow = await this.activities.read(followId);
    if (!follow || typeOf(follow) !== 'Follow' || idOf(follow.object) !== actor) {
      throw badRequest(`Accept and Reject answer a Follow of this actor that it received (${followId} is ${follow ?
        `a ${String(typeOf(follow))} of ${String(idOf(follow.object))}` :
        'unknown'}).`, 'invalid_activity');
    }
    const follower = idOf(follow.actor)!;
    const followers = this.urls.collection(username, 'followers');
    if (activity.type === 'Accept') {
      await this.collections.add(followers, follower, now);
    } else {
      await this.collections.remove(followers, follower);
    }
    activity.object = follow;
    activity.to = [ follower ];
  }
}
