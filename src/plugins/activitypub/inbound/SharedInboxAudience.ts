import type { Json } from '../ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { RemoteActor } from '../fetch/RemoteActorCache';
import { ADDRESS_FIELDS, PUBLIC_FORMS } from '../ActivityVocabulary';

/** Where the audience rule learns a remote actor's followers collection: RemoteActorCache. */
export interface ActorDocuments {
  peekActor: (iri: string) => RemoteActor | undefined;
  getActor: (iri: string) => Promise<RemoteActor>;
}

/** A remote actor that sent (or announced) the activity, with the local users who follow it. */
export interface FollowedActor {
  actor: string;
  localFollowers: readonly string[];
}

/** Activity types whose embedded object is the sender's own, so its addressing and mentions count too. */
const OWN_OBJECT_TYPES = new Set([ 'Create', 'Update' ]);

/**
 * Which local users a delivery to the shared inbox reaches, by Mastodon's rule (its ActivityPub
 * Create handling and fan-out on write): the local actors it names (to, cc, bto, bcc, audience, or a
 * Mention tag, of the activity and of the object it creates), and the local followers of its sender
 * only when it is addressed to Public or to the sender's own followers collection. A direct or
 * limited message therefore never reaches a follower it does not name. What reaches an inbox is what
 * its owner may read (AudienceRules.mayReadReceived), so this one rule decides both.
 */
export class SharedInboxAudience {
  private readonly urls: ActorUrls;

  /**
   * @param baseUrl - Public base URL: local actors are under it.
   * @param actors - Remote actor documents (their `followers`), cached; fetched only when an
   *   activity that is not public names a collection that may be its sender's followers.
   */
  public constructor(baseUrl: string, private readonly actors: ActorDocuments) {
    this.urls = new ActorUrls(baseUrl);
  }

  /**
   * The usernames whose inboxes the activity joins.
   * @param followed - The sender (and, for an activity a Group announced, the Group) with their local followers.
   */
  public async localRecipients(activity: Json, followed: readonly FollowedActor[]): Promise<Set<string>> {
    const addresses = this.addressesOf(activity);
    const recipients = new Set<string>();
    for (const iri of [ ...addresses, ...this.mentionsOf(activity) ]) {
      const username = this.urls.usernameOf(iri);
      if (username) {
        recipients.add(username);
      }
    }
    // A Follow, Block or the like of a local actor reaches that actor.
    const objectOwner = this.urls.usernameOf(idOf(activity.object) ?? '');
    if (objectOwner) {
      recipients.add(objectOwner);
    }
    const isPublic = addresses.some((iri): boolean => PUBLIC_FORMS.has(iri));
    for (const { actor, localFollowers } of followed) {
      if (localFollowers.length > 0 && (isPublic || await this.addressesFollowersOf(actor, addresses))) {
        for (const username of localFollowers) {
          recipients.add(username);
        }
      }
    }
    return recipients;
  }

  /** Whether `addresses` include `actor`'s followers collection, as its actor document names it. */
  private async addressesFollowersOf(actor: string, addresses: readonly string[]): Promise<boolean> {
    const remote = addresses.filter((iri): boolean => !iri.startsWith(this.urls.base));
    if (remote.length === 0) {
      return false;
    }
    let document = this.actors.peekActor(actor);
    if (!document) {
      // Unknown or expired (the signature's key may have been a key document, or the cache was
      // emptied by a restart): fetched once, through the SSRF guard, and cached. If it cannot be had,
      // the collection every implementation in the corpus uses stands in: only the sender chooses it.
      document = await this.actors.getActor(actor).catch((): undefined => undefined);
    }
    const followers = idOf(document?.followers) ?? `${actor}/followers`;
    return remote.includes(followers);
  }

  /** Everything the activity is addressed to, with what the object it creates is addressed to. */
  private addressesOf(activity: Json): string[] {
    const addresses: string[] = [];
    for (const source of this.ownParts(activity)) {
      for (const field of ADDRESS_FIELDS) {
        addresses.push(...idsOf(source[field]));
      }
    }
    return addresses;
  }

  /** The `href` of every Mention tag of the activity and of the object it creates. */
  private mentionsOf(activity: Json): string[] {
    const mentions: string[] = [];
    for (const source of this.ownParts(activity)) {
      const tags = Array.isArray(source.tag) ? source.tag as unknown[] : [ source.tag ];
      for (const tag of tags) {
        if (isObject(tag) && typeOf(tag) === 'Mention') {
          mentions.push(...idsOf(tag.href));
        }
      }
    }
    return mentions;
  }

  /** The activity, and the object it embeds when that object is the sender's own (a Create or Update). */
  private ownParts(activity: Json): Json[] {
    return OWN_OBJECT_TYPES.has(typeOf(activity) ?? '') && isObject(activity.object) ? [ activity, activity.object ] : [ activity ];
  }
}
