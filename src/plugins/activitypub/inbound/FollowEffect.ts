import { idOf } from '../ActivityJson';
import { ActorUrls } from '../ActorDocument';
import type { OutboxService } from '../OutboxService';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Follow of a local actor: answered with an Accept from that actor, whose delivery adds the follower
 * (Fedpod's actors do not ask for approval: `manuallyApprovesFollowers` is false).
 */
export class FollowEffect extends InboundActivityEffect {
  public readonly types = [ 'Follow' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly outbox: OutboxService) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender }: ReceivedActivity): Promise<void> {
    const username = this.urls.usernameOf(idOf(activity.object) ?? '');
    if (username) {
      await this.outbox.post(username, { type: 'Accept', object: activity.id, to: [ sender ]});
    }
  }
}
