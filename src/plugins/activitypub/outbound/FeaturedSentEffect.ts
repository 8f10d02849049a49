import type { Collections } from '../../../storage/Collections';
import type { ResourceGraphs } from '../../../storage/ResourceGraphs';
import { badRequest } from '../../../util/HttpErrors';
import { idOf, idsOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { ActorProfiles } from '../ActorProfiles';
import { AS_NS, AS_PUBLIC } from '../ActivityVocabulary';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';
import { ownedObject } from './OwnedObject';

/**
 * Add and Remove with the actor's `featured` collection as target pin and unpin one of its own public
 * objects (Mastodon's pinned posts, which Mastodon reads from that collection). An actor created
 * before the collection existed gains its `featured` property with its first pin. Add and Remove of
 * other targets only are delivered.
 */
export class FeaturedSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Add', 'Remove' ];
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly collections: Collections,
    private readonly profiles: ActorProfiles,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, username, actor, now }: OutgoingActivity): Promise<void> {
    const featured = this.urls.collection(username, 'featured');
    if (idOf(activity.target) !== featured) {
      return;
    }
    const objectId = idOf(activity.object)!;
    if (activity.type === 'Remove') {
      await this.collections.remove(featured, objectId);
    } else {
      const stored = await ownedObject(this.store, objectId, actor, 'pin');
      const audience = stored.data.filter((entry): boolean => entry.subject.value === objectId &&
        (entry.predicate.value === `${AS_NS}to` || entry.predicate.value === `${AS_NS}cc`))
        .map((entry): string => entry.object.value);
      if (!audience.includes(AS_PUBLIC)) {
        throw badRequest('Only public objects can be pinned: the featured collection is public.', 'not_public');
      }
      await this.ensureFeaturedProperty(actor, featured, now);
      await this.collections.add(featured, objectId, now);
    }
    if (idsOf(activity.to).length === 0 && idsOf(activity.cc).length === 0) {
      activity.to = [ AS_PUBLIC ];
      activity.cc = [ this.urls.collection(username, 'followers') ];
    }
  }

  private async ensureFeaturedProperty(actor: string, featured: string, now: Date): Promise<void> {
    const document = await this.profiles.read(actor);
    if (document && idOf(document.featured) !== featured) {
      await this.profiles.change(actor, await this.profiles.parse(actor, { featured }), now);
    }
  }
}
