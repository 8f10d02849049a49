import { badRequest } from '../../../util/HttpErrors';
import type { Json } from '../ActivityJson';
import { idOf, idsOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { ActorProfiles } from '../ActorProfiles';
import type { RemoteActorCache } from '../fetch/RemoteActorCache';
import { RemoteDocumentError, RemoteFetchError } from '../fetch/FetchErrors';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';

/**
 * Move of the actor to another account (Mastodon's account migration): the new account must already
 * name this one in its `alsoKnownAs` (read afresh from its server), as every receiving server checks
 * too. The actor's document then says `movedTo` the new account, and the Move goes to its followers,
 * whose servers make them follow the new account.
 */
export class MoveSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Move' ];
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly profiles: ActorProfiles, private readonly actors: RemoteActorCache) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, username, actor, now }: OutgoingActivity): Promise<void> {
    const target = idOf(activity.target);
    if (idOf(activity.object) !== actor || !target || target === actor) {
      throw badRequest('A Move moves its own actor (object) to another account (target).', 'invalid_activity');
    }
    const moved = await this.targetDocument(target);
    if (!idsOf(moved.alsoKnownAs).includes(actor)) {
      throw badRequest(`${target} does not name ${actor} in alsoKnownAs: add the alias on the new account first.`,
        'move_not_confirmed');
    }
    await this.profiles.change(actor, await this.profiles.parse(actor, { movedTo: target }), now);
    activity.object = actor;
    activity.target = target;
    activity.to ??= [ this.urls.collection(username, 'followers') ];
  }

  private async targetDocument(target: string): Promise<Json> {
    if (this.urls.usernameOf(target)) {
      const local = await this.profiles.read(target);
      if (!local) {
        throw badRequest(`There is no actor ${target}.`, 'invalid_activity');
      }
      return local;
    }
    try {
      return await this.actors.getActor(target, { refresh: true }) as Json;
    } catch (error: unknown) {
      if (error instanceof RemoteFetchError || error instanceof RemoteDocumentError) {
        throw badRequest(`Could not read ${target}: ${error.message}`, 'move_not_confirmed');
      }
      throw error;
    }
  }
}
