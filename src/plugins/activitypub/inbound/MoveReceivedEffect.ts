import type { Collections } from '../../../storage/Collections';
import { PermanentJobError } from '../../queue/PermanentJobError';
import { idOf, idsOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { RemoteActorCache } from '../fetch/RemoteActorCache';
import type { OutboxService } from '../outbound/OutboxService';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/**
 * Move of an account to a new one (Mastodon's account migration), checked as Mastodon checks it: the
 * activity moves its own sender, and the target, fetched afresh from its server, names the sender
 * in its `alsoKnownAs`. Then every local actor that followed the old account follows the new one
 * (a Follow from that actor, delivered like any other) and stops following the old one. A Move that
 * fails the check is refused with its reason (a dead letter), never applied.
 */
export class MoveReceivedEffect extends InboundActivityEffect {
  public readonly types = [ 'Move' ];
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly actors: RemoteActorCache,
    private readonly collections: Collections,
    private readonly outbox: OutboxService,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, sender }: ReceivedActivity): Promise<void> {
    const target = idOf(activity.target);
    if (idOf(activity.object) !== sender || !target || target === sender) {
      throw new PermanentJobError(`Refused Move ${String(activity.id)}: an account moves only itself, to another account`);
    }
    const moved = await this.actors.getActor(target, { refresh: true });
    if (!idsOf(moved.alsoKnownAs).includes(sender)) {
      throw new PermanentJobError(`Refused Move ${String(activity.id)}: ${target} does not name ${sender} in alsoKnownAs`);
    }
    for (const following of await this.collections.collectionsContaining(sender, '/following')) {
      const username = this.urls.usernameOf(following.slice(0, -'/following'.length));
      if (username) {
        await this.outbox.post(username, { type: 'Follow', object: target, to: [ target ]});
        await this.collections.remove(following, sender);
      }
    }
  }
}
