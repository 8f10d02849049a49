import type { Collections } from '../../../storage/Collections';
import { idOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Block of a local actor by another: as Mastodon does, the follows between them end both ways (the
 * blocker leaves the local actor's followers and following). The Block stays in the blocked actor's
 * inbox, for its owner to see.
 */
export class BlockReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Block' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender }: ReceivedActivity): Promise<void> {
    const username = this.urls.usernameOf(idOf(activity.object) ?? '');
    if (username) {
      await this.collections.remove(this.urls.collection(username, 'followers'), sender);
      await this.collections.remove(this.urls.collection(username, 'following'), sender);
    }
  }
}
