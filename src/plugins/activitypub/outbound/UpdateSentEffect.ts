import { documentMetadata, type ResourceGraphs } from '../../../storage/ResourceGraphs';
import { badRequest } from '../../../util/HttpErrors';
import type { JsonLdParser } from '../../ldp/JsonLdParser';
import type { Json } from '../ActivityJson';
import { idOf, isObject } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { ActorProfiles } from '../ActorProfiles';
import { AS_NS, AS_PUBLIC } from '../ActivityVocabulary';
import type { OutgoingActivity } from './OutboundActivityEffect';
import { OutboundActivityEffect } from './OutboundActivityEffect';
import type { ObjectVersions } from '../ObjectVersions';
import { ownedObject } from './OwnedObject';
import { address, isUnaddressed, originalAudience, storedAudience } from './ThreadAudience';

const TOOT_NS = 'http://joinmastodon.org/ns#';

/** What an actor may change in its own profile, by JSON key, with the property each sets. */
export const EDITABLE_PROFILE: Readonly<Record<string, string>> = {
  name: `${AS_NS}name`,
  nameMap: `${AS_NS}name`,
  summary: `${AS_NS}summary`,
  summaryMap: `${AS_NS}summary`,
  icon: `${AS_NS}icon`,
  image: `${AS_NS}image`,
  // Mastodon's profile fields (PropertyValue) and links.
  attachment: `${AS_NS}attachment`,
  // The accounts this one is also known as: an account moving here lists its old one (Move checks it).
  alsoKnownAs: `${AS_NS}alsoKnownAs`,
  manuallyApprovesFollowers: `${AS_NS}manuallyApprovesFollowers`,
  discoverable: `${TOOT_NS}discoverable`,
  indexable: `${TOOT_NS}indexable`,
};

/**
 * Update of the actor's own objects: the object is replaced by the one the Update carries (author
 * and id kept, `updated` set; its addressing kept when the new one has none), and an Update that
 * names no addressee goes to everyone who received the object (originalAudience); the version it
 * replaces is kept (ObjectVersions: an edit's history). Update of the actor itself changes its profile: the keys of
 * EDITABLE_PROFILE are set (null or [] clears one), every other key must be absent or unchanged
 * (a client may send back the whole document it read; keys, collections and the username stay
 * the server's), and the Update carries the new document to the actor's followers, as Mastodon's does.
 */
export class UpdateSentEffect extends OutboundActivityEffect {
  public readonly types = [ 'Update' ];
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly parser: JsonLdParser,
    private readonly profiles: ActorProfiles,
    private readonly versions?: ObjectVersions,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public async apply(outgoing: OutgoingActivity): Promise<void> {
    const { activity, actor } = outgoing;
    if (!isObject(activity.object)) {
      throw badRequest('An Update carries the whole new object.', 'invalid_activity');
    }
    if (idOf(activity.object) === actor) {
      await this.updateProfile(outgoing, activity.object);
    } else {
      await this.updateObject(outgoing, activity.object);
    }
  }

  private async updateObject({ activity, actor, now }: OutgoingActivity, object: Json): Promise<void> {
    const objectId = idOf(object)!;
    const stored = await ownedObject(this.store, objectId, actor, 'update');
    const replacement: Json = { '@context': activity['@context'], ...object, id: objectId, attributedTo: actor,
      updated: now.toISOString() };
    // An edit keeps who may read the post unless it says otherwise, and reaches who received it.
    if (isUnaddressed(replacement)) {
      address(replacement, storedAudience(objectId, stored.data));
    }
    if (isUnaddressed(activity)) {
      address(activity, await originalAudience(this.store, objectId, stored.data));
    }
    activity.object = replacement;
    const data = await this.parser.toQuads(replacement, objectId, { fediverse: true });
    await this.versions?.keep(objectId, stored.data, now);
    await this.store.write(objectId, this.urls.url('objects'), documentMetadata(objectId, now), data);
  }

  private async updateProfile({ activity, username, actor, now }: OutgoingActivity, object: Json): Promise<void> {
    const current = (await this.profiles.read(actor))!;
    const changes: Json = {};
    const cleared: string[] = [];
    for (const [ key, value ] of Object.entries(object)) {
      if (key === '@context' || key === 'id') {
        continue;
      }
      if (EDITABLE_PROFILE[key]) {
        if (value === null || (Array.isArray(value) && value.length === 0)) {
          cleared.push(EDITABLE_PROFILE[key]);
        } else {
          changes[key] = value;
        }
      } else if (JSON.stringify(value) !== JSON.stringify(current[key])) {
        throw badRequest(`${key} cannot be changed by an Update; a profile's editable keys are ${Object.keys(EDITABLE_PROFILE).join(', ')}.`,
          'not_editable');
      }
    }
    const quads = await this.profiles.parse(actor, changes, activity['@context']);
    const updated = await this.profiles.change(actor, quads, now, cleared);
    delete updated['@context'];
    activity.object = updated;
    if (activity.to === undefined && activity.cc === undefined) {
      activity.to = [ AS_PUBLIC ];
      activity.cc = [ this.urls.collection(username, 'followers') ];
    }
  }
}
