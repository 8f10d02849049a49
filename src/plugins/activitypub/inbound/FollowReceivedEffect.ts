import type { Collections } from '../../../storage/Collections';
import { idOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { ActorProfiles } from '../ActorProfiles';
import type { OutboxService } from '../outbound/OutboxService';
import { blockedCollection } from '../outbound/BlockSentEffect';
import { AS_NS } from '../ActivityVocabulary';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Follow of a local actor: answered at once with an Accept from that actor, whose delivery adds the
 * follower, unless the actor asks to approve followers (`manuallyApprovesFollowers` true in its
 * profile): then the Follow waits in its inbox for the owner to post an Accept or a Reject. A
 * Follow from an actor the local actor blocked is rejected.
 */
export class FollowReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Follow' ];
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly outbox: OutboxService,
    private readonly collections: Collections,
    private readonly profiles: ActorProfiles,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender }: ReceivedActivity): Promise<void> {
    const followed = idOf(activity.object) ?? '';
    const username = this.urls.usernameOf(followed);
    if (!username) {
      return;
    }
    if (await this.collections.contains(blockedCollection(followed), sender)) {
      await this.outbox.post(username, { type: 'Reject', object: activity.id, to: [ sender ]});
    } else if (!await this.profiles.isTrue(followed, `${AS_NS}manuallyApprovesFollowers`)) {
      await this.outbox.post(username, { type: 'Accept', object: activity.id, to: [ sender ]});
    }
  }
}
