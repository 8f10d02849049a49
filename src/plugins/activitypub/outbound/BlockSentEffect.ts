import type { Collections } from '../../../storage/Collections';
import { badRequest } from '../../../util/HttpErrors';
import { idOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';

/**
 * An actor's block list, `<actor>/blocked`: kept in the store for this server's own use and not
 * served (Mastodon does not publish blocks either).
 */
export function blockedCollection(actor: string): string {
  return `${actor}/blocked`;
}

/**
 * Block of another actor, as Mastodon does it: the blocked actor joins the block list (activities it
 * sends no longer reach this actor's inbox, its Follows are rejected), stops following this actor
 * and is no longer followed by it; the Block is delivered to it.
 */
export class BlockSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Block' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, username, actor, now }: OutgoingActivity): Promise<void> {
    const blocked = idOf(activity.object)!;
    if (blocked === actor) {
      throw badRequest('An actor cannot block itself.', 'invalid_activity');
    }
    await this.collections.add(blockedCollection(actor), blocked, now);
    await this.collections.remove(this.urls.collection(username, 'followers'), blocked);
    await this.collections.remove(this.urls.collection(username, 'following'), blocked);
    activity.to ??= [ blocked ];
  }
}
