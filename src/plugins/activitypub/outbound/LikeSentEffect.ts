import type { Collections } from '../../../storage/Collections';
import { idOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';

/** A Like puts its object in the actor's `liked` collection. */
export class LikeSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Like' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, username, now }: OutgoingActivity): Promise<void> {
    await this.collections.add(this.urls.collection(username, 'liked'), idOf(activity.object)!, now);
  }
}
