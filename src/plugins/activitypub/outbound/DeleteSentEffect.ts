import type { Collections } from '../../../storage/Collections';
import { documentMetadata, type ResourceGraphs } from '../../../storage/ResourceGraphs';
import { RDF_TYPE } from '../../../storage/StoreVocabulary';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../ldp/Contexts';
import type { JsonLdParser } from '../../ldp/JsonLdParser';
import { idOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import { AS_NS } from '../ActivityVocabulary';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';
import { ownedObject } from './OwnedObject';
import { address, isUnaddressed, originalAudience } from './ThreadAudience';

/**
 * Delete of one of the actor's own objects leaves a Tombstone in its place (410 on GET), takes it
 * out of the outbox (its Create is no longer listed, as Mastodon's outbox does) and out of the
 * featured collection. A Delete that names no addressee goes to everyone who received the object
 * (originalAudience).
 */
export class DeleteSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Delete' ];
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly parser: JsonLdParser,
    private readonly collections: Collections,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply({ activity, username, actor, now }: OutgoingActivity): Promise<void> {
    const objectId = idOf(activity.object)!;
    const stored = await ownedObject(this.store, objectId, actor, 'delete');
    const formerType = stored.data.find((entry): boolean => entry.subject.value === objectId &&
      entry.predicate.value === RDF_TYPE)?.object.value;
    const tombstone = { '@context': ACTIVITYSTREAMS_CONTEXT_URL, id: objectId, type: 'Tombstone',
      ...formerType ? { formerType: formerType.replace(AS_NS, '') } : {}, deleted: now.toISOString() };
    activity.object = objectId;
    if (isUnaddressed(activity)) {
      address(activity, await originalAudience(this.store, objectId, stored.data));
    }
    const data = await this.parser.toQuads(tombstone, objectId, { fediverse: true });
    await this.store.write(objectId, this.urls.url('objects'), documentMetadata(objectId, now), data);
    const outbox = this.urls.collection(username, 'outbox');
    for (const create of await this.store.resourcesWith(`${AS_NS}Create`, `${AS_NS}object`, objectId)) {
      await this.collections.remove(outbox, create);
    }
    await this.collections.remove(this.urls.collection(username, 'featured'), objectId);
  }
}
