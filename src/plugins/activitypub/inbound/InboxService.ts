import type { ReadWriteLocker } from '@solid/community-server';
import { getLoggerFor } from '@solid/community-server';
import type { CollectionAddition, Collections } from '../../../storage/Collections';
import type { ResourceWrite } from '../../../storage/ResourceGraphs';
import { sameOrigin } from '../../../util/Iris';
import { PermanentJobError } from '../../queue/PermanentJobError';
import type { Json } from '../ActivityJson';
import { idOf, isObject, typeOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { ActorUrls } from '../ActorUrls';
import type { InboundActivityEffect } from './InboundActivityEffect';
import type { InboundPermissions } from './InboundPermissions';
import type { FollowedActor, SharedInboxAudience } from './SharedInboxAudience';
import { ACTIVITY_TYPES } from '../ActivityVocabulary';
import { messageOf } from '../../../util/Errors';
import type { ActivityEvents } from '../ActivityEvents';

export interface InboxServiceOptions {
  /** Public base URL. */
  baseUrl: string;
  activities: ActivityRepository;
  collections: Collections;
  /** Who may change what. */
  permissions: InboundPermissions;
  /** Which local users a shared-inbox delivery reaches. */
  audience: SharedInboxAudience;
  /** What each activity type does, one effect per type. */
  effects: InboundActivityEffect[];
  /**
   * Serialises the processing of one activity (CSS's resource locker); without it, concurrent
   * deliveries of one activity may both run its side effects.
   */
  locker?: ReadWriteLocker;
  /** Told of every activity that joined local inboxes (the Mastodon API's notifications and streaming). */
  events?: ActivityEvents;
}

/**
 * What an activity from another server does once its signature has been checked (ActivityPub §7),
 * run from the inbox queue. Idempotent by activity id: a delivery seen before changes nothing.
 * Two deliveries of one activity (a peer retrying, or two nodes' workers at once) are serialised by
 * the resource locker (on Redis when several nodes share the store), and the activity is stored
 * marked pending until its side effects are done: a run cut short is completed by the next one,
 * a finished one is never repeated. Deliveries between local actors are likewise done once per
 * recipient, the recipient's inbox holding the activity being the mark.
 *
 * Who may change what is InboundPermissions' to say. What each type then does is an InboundActivityEffect listed in
 * config (`effects` in config/parts/activitypub/components/federation.json); types without one are kept and
 * listed only. A Group's Announce of its own server's activity delivers that activity too.
 * The activity joins the inbox of every local recipient: for the shared inbox, the users
 * SharedInboxAudience says it is for, and no user who blocked its sender.
 */
export class InboxService {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;
  private readonly activities: ActivityRepository;
  private readonly collections: Collections;
  private readonly permissions: InboundPermissions;
  private readonly audience: SharedInboxAudience;
  private readonly locker?: ReadWriteLocker;
  private readonly events?: ActivityEvents;
  private readonly effects = new Map<string, InboundActivityEffect>();

  public constructor(options: InboxServiceOptions) {
    this.urls = new ActorUrls(options.baseUrl);
    this.activities = options.activities;
    this.collections = options.collections;
    this.permissions = options.permissions;
    this.audience = options.audience;
    this.locker = options.locker;
    this.events = options.events;
    for (const effect of options.effects) {
      for (const type of effect.types) {
        if (this.effects.has(type)) {
          throw new Error(`Two inbound effects for ${type}: ${this.effects.get(type)!.constructor.name} and ${effect.constructor.name}`);
        }
        this.effects.set(type, effect);
      }
    }
  }

  /**
   * An activity one local actor sent another, through the delivery queue: already stored and
   * trusted, so only its side effects for the recipient run.
   */
  public async receiveLocal(activity: Json, inboxOwner: string): Promise<void> {
    const id = idOf(activity);
    const sender = idOf(activity.actor);
    if (!id || !sender) {
      return;
    }
    await this.exclusively(`local ${inboxOwner} ${id}`, async(): Promise<void> => {
      if (await this.collections.contains(this.urls.collection(inboxOwner, 'inbox'), id)) {
        this.logger.debug(`Already delivered ${id} to ${inboxOwner}`);
        return;
      }
      await this.applySideEffects(activity, sender, new Date());
      await this.addToInboxes(activity, id, sender, inboxOwner);
    });
  }

  /**
   * The activity a Group announces (Lemmy's and Mbin's communities pass on their members' posts,
   * comments, votes and moderators' actions that way) is received as if delivered itself, when it
   * comes from the Group's own server, which vouches for it (an activity from elsewhere would need
   * fetching from its origin to be trusted: it stays a reference in the Announce). A refusal of the
   * inner activity (a moderator removing a comment of another server's user) is logged with its
   * reason; the Announce itself stays received.
   */
  private async receiveAnnounced(activity: Json, sender: string, inboxOwner?: string): Promise<void> {
    const inner = activity.object;
    if (typeOf(activity) !== 'Announce' || !isObject(inner) || !ACTIVITY_TYPES.has(typeOf(inner) ?? '') ||
      typeOf(inner) === 'Announce' || !idOf(inner) || !idOf(inner.actor) ||
      !sameOrigin(idOf(inner)!, sender) || !sameOrigin(idOf(inner.actor)!, sender)) {
      return;
    }
    try {
      await this.receive({ '@context': activity['@context'], ...inner }, inboxOwner, sender);
    } catch (error: unknown) {
      if (!PermanentJobError.is(error)) {
        throw error;
      }
      this.logger.warn(`Kept the Announce ${String(activity.id)} without its activity: ${messageOf(error)}`);
    }
  }

  /**
   * @param activity - The delivered activity; its `actor` was checked against the signature's key
   *   owner, and its ids made storable (InboxHandler, before queueing).
   * @param inboxOwner - The local username whose inbox received it, or undefined for the shared inbox.
   * @param announcer - The sender of the Announce that carried it (a Group, whose moderators may act
   *   on what was posted to it), when it came that way.
   */
  public async receive(activity: Json, inboxOwner?: string, announcer?: string): Promise<void> {
    const id = idOf(activity);
    const sender = idOf(activity.actor);
    if (!id || !sender || !sameOrigin(id, sender) || id.startsWith(this.urls.base)) {
      // Another server's activity must carry an id of its own server (as Mastodon requires). Never
      // dropped silently: a dead letter keeps it with the reason.
      throw new PermanentJobError(`Refused an activity whose id ${String(id)} is not on its sender's server ${String(sender)}`);
    }
    await this.exclusively(`remote ${id}`, async(): Promise<void> => {
      const effect = this.effectFor(activity);
      // Without side effects nothing this job does changes who follows or blocked the sender, so that
      // is read alongside the received state (one message to the store) instead of after storing: a
      // job waits for one store round trip less.
      const memberships = effect ? undefined : this.membershipsOf(sender);
      const type = typeOf(activity);
      const carriesObject = (type === 'Create' || type === 'Update') && isObject(activity.object);
      // Read alongside too: whether a later version of the object came first (then it is not overwritten).
      const newerStored = carriesObject ? this.activities.hasNewerObject(activity.object as Json) : undefined;
      // Awaited below, or left on a refusal: their failure then concerns nobody.
      memberships?.catch((): void => undefined);
      newerStored?.catch((): void => undefined);
      if (await this.activities.receivedState(id) === 'done') {
        this.logger.debug(`Already received ${id}`);
        await this.addToInboxes(activity, id, sender, inboxOwner, memberships, [], announcer);
        return;
      }
      if (!await this.permissions.mayApply(activity, sender, announcer)) {
        throw new PermanentJobError(`Refused ${String(activity.type)} ${id}: ${sender} may not do that to ${String(idOf(activity.object))}`);
      }
      // Linked Data signatures and proofs are not checked here (the HTTP signature was): not kept.
      delete activity.signature;
      delete activity.proof;
      const now = new Date();
      const keepObject = carriesObject && !await newerStored;
      if (effect) {
        await this.activities.storeRemote(activity, now, keepObject, true);
        await effect.apply({ activity, sender, now });
      }
      // Stored with its inbox entries in one update, all or nothing, so a job waits for one store
      // commit, not two: for an activity with side effects, the mark that they are done; without any
      // (most Creates), the activity itself, with nothing to mark pending.
      const writes = effect ? [ this.activities.doneWrite(id, now) ] : await this.activities.remoteWrites(activity, now, keepObject, false);
      await this.addToInboxes(activity, id, sender, inboxOwner, memberships, writes, announcer);
    });
    await this.receiveAnnounced(activity, sender, inboxOwner);
  }

  /** Runs `work` holding the write lock named `name` (a name no LDP resource has), when there is a locker. */
  private async exclusively(name: string, work: () => Promise<void>): Promise<void> {
    if (!this.locker) {
      return work();
    }
    return this.locker.withWriteLock({ path: `urn:fedpod:inbox:${encodeURIComponent(name)}` }, work);
  }

  /** What the activity's type does (InboundActivityEffect), when an effect is registered for it. */
  private async applySideEffects(activity: Json, sender: string, now: Date): Promise<void> {
    await this.effectFor(activity)?.apply({ activity, sender, now });
  }

  /** The effect registered for the activity's type, when it has one for this activity. */
  private effectFor(activity: Json): InboundActivityEffect | undefined {
    const type = typeOf(activity);
    const effect = type ? this.effects.get(type) : undefined;
    return effect?.appliesTo(activity) ? effect : undefined;
  }

  /** One query for both: the local collections that list `sender` as followed or as blocked. */
  private async membershipsOf(sender: string): Promise<string[]> {
    return this.collections.collectionsContaining(sender, '/following', '/blocked');
  }

  /**
   * The inbox that received it, and for the shared inbox every local user it is for (SharedInboxAudience);
   * never the inbox of a local actor who blocked the sender (the activity stays stored).
   * @param read - The sender's memberships (membershipsOf) when already asked for.
   * @param alongWith - Resources to write in the same update (Collections.addAll).
   * @param announcer - The Group whose Announce carried it: its local followers count as the sender's do.
   */
  private async addToInboxes(activity: Json, id: string, sender: string, inboxOwner?: string,
    read?: Promise<string[]>, alongWith: ResourceWrite[] = [], announcer?: string): Promise<void> {
    const memberships = await (read ?? this.membershipsOf(sender));
    let owners: Set<string>;
    if (inboxOwner) {
      owners = new Set([ inboxOwner ]);
    } else {
      const followed: FollowedActor[] = [{ actor: sender, localFollowers: this.collectionOwners(memberships, '/following') }];
      if (announcer !== undefined && announcer !== sender) {
        followed.push({ actor: announcer, localFollowers: this.collectionOwners(await this.membershipsOf(announcer), '/following') });
      }
      owners = await this.audience.localRecipients(activity, followed);
    }
    for (const username of this.collectionOwners(memberships, '/blocked')) {
      owners.delete(username);
    }
    // One update, however many local followers a shared inbox reaches.
    await this.collections.addAll([ ...owners ].map((username): CollectionAddition =>
      ({ collection: this.urls.collection(username, 'inbox'), item: id })), alongWith);
    this.events?.emit({ activity, box: 'inbox', usernames: [ ...owners ]});
  }

  /** The local actors whose collection named `suffix` is among `collections`. */
  private collectionOwners(collections: readonly string[], suffix: string): string[] {
    return collections.filter((collection): boolean => collection.endsWith(suffix))
      .map((collection): string | undefined => this.urls.usernameOf(collection.slice(0, -suffix.length)))
      .filter((username): username is string => username !== undefined);
  }
}
