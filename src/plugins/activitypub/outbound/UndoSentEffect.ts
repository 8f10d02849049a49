import type { Collections } from '../../../storage/Collections';
import { forbidden } from '../../../util/HttpErrors';
import { idOf, typeOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { ActorUrls } from '../ActorUrls';
import { blockedCollection } from './BlockSentEffect';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';

/**
 * Undo of the actor's own Follow, Like or Block takes back what that did (the followed actor leaves
 * `following`, the object `liked`, the blocked actor the block list); the Undo embeds what it undoes,
 * and an Undo of a Follow is addressed to the followed actor.
 */
export class UndoSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Undo' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly activities: ActivityRepository,
    private readonly collections: Collections) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, username, actor }: OutgoingActivity): Promise<void> {
    const undone = await this.activities.read(idOf(activity.object)!);
    if (!undone || idOf(undone.actor) !== actor) {
      throw forbidden('Only the actor\'s own activities can be undone.', 'not_owner');
    }
    const target = idOf(undone.object)!;
    switch (typeOf(undone)) {
      case 'Follow':
        await this.collections.remove(this.urls.collection(username, 'following'), target);
        activity.to ??= [ target ];
        break;
      case 'Like':
        await this.collections.remove(this.urls.collection(username, 'liked'), target);
        break;
      case 'Block':
        await this.collections.remove(blockedCollection(actor), target);
        activity.to ??= [ target ];
        break;
      default:
        break;
    }
    activity.object = undone;
  }
}
