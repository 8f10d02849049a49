import { getLoggerFor } from '@solid/community-server';
import type { Collections } from '../../../storage/Collections';
import { documentMetadata, type ResourceGraphs } from '../../../storage/ResourceGraphs';
import { badRequest, forbidden, notFound } from '../../../util/HttpErrors';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../ldp/Contexts';
import type { JsonLdParser } from '../../ldp/JsonLdParser';
import { generatedName } from '../../ldp/ResourceIds';
import type { Json } from '../ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { DeliveryScheduler } from '../DeliveryScheduler';
import type { OutboundActivityEffect } from './OutboundActivityEffect';
import type { OutboundHandles } from './OutboundHandles';
import { addressParentAuthor } from './ThreadAudience';
import type { ActivityEvents } from '../ActivityEvents';
import { ACTIVITY_TYPES, ADDRESS_FIELDS, PUBLIC_FORMS, WRAPPED_IN_CREATE } from '../ActivityVocabulary';

export interface PostedActivity {
  id: string;
  activity: Json;
}

/**
 * What happens when an actor posts to its outbox (ActivityPub §6): the activity is checked, a bare
 * object is wrapped in a Create, ids are minted in /activities/ and /objects/, `published` is set,
 * handles, mentions and hashtags are resolved and addressed (`OutboundHandles`), the side effects of its type run (an OutboundActivityEffect listed in config: `effects` in
 * config/parts/activitypub/components/federation.json), the activity and any new object are stored, it joins the outbox,
 * and it is handed to the delivery queue for its addressees, local and remote (bto/bcc are removed
 * from what is delivered).
 */
export class OutboxService {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;
  private readonly effects = new Map<string, OutboundActivityEffect>();

  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly parser: JsonLdParser,
    private readonly collections: Collections,
    private readonly delivery: DeliveryScheduler,
    effects: OutboundActivityEffect[],
    /** Handles in Follows, mentions and hashtags in new posts (none: taken as posted). */
    private readonly handles?: OutboundHandles,
    /** Told of every posted activity (the Mastodon API's streaming). */
    private readonly events?: ActivityEvents,
  ) {
    this.urls = new ActorUrls(baseUrl);
    for (const effect of effects) {
      for (const type of effect.types) {
        if (this.effects.has(type)) {
          throw new Error(`Two outbound effects for ${type}: ${this.effects.get(type)!.constructor.name} and ${effect.constructor.name}`);
        }
        this.effects.set(type, effect);
      }
    }
  }

  public async post(username: string, body: unknown): Promise<PostedActivity> {
    const actor = this.urls.actor(username);
    const now = new Date();
    const activity = this.toActivity(body, actor, now);
    // A valid token may outlive its account: an outbox without an actor document takes nothing.
    if (!await this.store.exists(actor)) {
      throw notFound(`There is no actor ${actor}.`, 'unknown_actor');
    }
    // Before the effects and the addressing are read: a handle becomes an actor, a mention an addressee.
    await this.handles?.prepare(activity, actor);
    if (activity.type === 'Create') {
      await addressParentAuthor(this.store, activity, actor);
    }
    await this.applySideEffects(username, activity, now);
    await this.storeActivity(activity, now);
    await this.collections.add(this.urls.collection(username, 'outbox'), activity.id as string, now);
    this.events?.emit({ activity, box: 'outbox', usernames: [ username ]});
    const recipients = await this.recipientsOf(username, activity);
    if (recipients.length > 0) {
      // Local and remote recipients alike go through the durable queue: local ones without HTTP.
      await this.delivery.schedule(activity, username, recipients);
    }
    return { id: activity.id as string, activity };
  }

  /** Checks the posted JSON and turns it into the activity to store, with minted ids. */
  private toActivity(body: unknown, actor: string, now: Date): Json {
    if (!isObject(body)) {
      throw badRequest('Post a JSON object: an activity or an object such as a Note.', 'invalid_activity');
    }
    const type = typeOf(body);
    if (!type) {
      throw badRequest('The activity has no type.', 'invalid_activity');
    }
    const given = idOf(body.actor);
    if (body.actor !== undefined && given !== actor) {
      throw forbidden(`The actor must be the outbox's owner, ${actor}.`, 'actor_mismatch');
    }
    const context = body['@context'] ?? ACTIVITYSTREAMS_CONTEXT_URL;
    let activity: Json;
    if (ACTIVITY_TYPES.has(type) && !WRAPPED_IN_CREATE.has(type)) {
      activity = { ...body };
    } else {
      // A bare object: wrapped in a Create that shares its addressing.
      const object: Json = { ...body };
      delete object['@context'];
      activity = { type: 'Create', object };
      for (const field of ADDRESS_FIELDS) {
        if (object[field] !== undefined) {
          activity[field] = object[field];
        }
      }
    }
    activity['@context'] = context;
    activity.id = this.urls.url('activity', { id: generatedName(now) });
    activity.actor = actor;
    activity.published = now.toISOString();
    if (activity.type === 'Create') {
      const object = activity.object;
      if (!isObject(object) || !typeOf(object)) {
        throw badRequest('A Create needs an object with a type.', 'invalid_activity');
      }
      const attributed = idOf(object.attributedTo);
      if (object.attributedTo !== undefined && attributed !== actor) {
        throw forbidden('attributedTo must be the outbox\'s owner.', 'actor_mismatch');
      }
      activity.object = { ...object, id: this.urls.url('object', { id: generatedName(now) }), attributedTo: actor,
        published: now.toISOString() };
      for (const field of ADDRESS_FIELDS) {
        if (activity[field] !== undefined && (activity.object as Json)[field] === undefined) {
          (activity.object as Json)[field] = activity[field];
        }
      }
    }
    if ([ 'Follow', 'Like', 'Announce', 'Undo', 'Accept', 'Reject', 'Update', 'Delete', 'Block', 'Add', 'Remove', 'Move' ].includes(activity.type as string) &&
      !idOf(activity.object)) {
      throw badRequest(`A ${String(activity.type)} needs an object.`, 'invalid_activity');
    }
    if (activity.type === 'Follow' && idsOf(activity.to).length === 0) {
      activity.to = [ idOf(activity.object) ];
    }
    return activity;
  }

  /** What the activity's type does (OutboundActivityEffect), when an effect is registered for it. */
  private async applySideEffects(username: string, activity: Json, now: Date): Promise<void> {
    const effect = this.effects.get(activity.type as string);
    await effect?.apply({ activity, username, actor: this.urls.actor(username), now });
  }

  private async storeActivity(activity: Json, now: Date): Promise<void> {
    const id = activity.id as string;
    if (activity.type === 'Create') {
      const object = activity.object as Json;
      const objectId = object.id as string;
      const objectData = await this.parser.toQuads({ '@context': activity['@context'], ...object }, objectId, { fediverse: true });
      await this.store.createInContainer(this.urls.url('objects'), objectId, objectData, documentMetadata(objectId, now), now);
    }
    // The activity's graph references its object by IRI: an object with an id has its own graph
    // (or is another server's), and reads embed it again where peers expect that.
    const objectId = idOf(activity.object);
    const stored = objectId ? { ...activity, object: objectId } : activity;
    const data = await this.parser.toQuads(stored, id, { fediverse: true });
    await this.store.createInContainer(this.urls.url('activities'), id, data, documentMetadata(id, now), now);
  }

  /** Addressees of the activity, with this actor's followers collection expanded and Public left out. */
  private async recipientsOf(username: string, activity: Json): Promise<string[]> {
    const followers = this.urls.collection(username, 'followers');
    const recipients = new Set<string>();
    for (const field of ADDRESS_FIELDS) {
      for (const iri of idsOf(activity[field])) {
        if (PUBLIC_FORMS.has(iri)) {
          continue;
        }
        if (iri === followers) {
          for (const follower of await this.collections.all(followers)) {
            recipients.add(follower);
          }
        } else {
          recipients.add(iri);
        }
      }
    }
    recipients.delete(this.urls.actor(username));
    return [ ...recipients ];
  }

}
