import type { ResourceGraphs } from '../../../storage/ResourceGraphs';
import { sameOrigin } from '../../../util/Iris';
import type { Json } from '../ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../ActivityJson';
import { ActorUrls } from '../ActorUrls';
import type { GroupModerators } from '../fetch/GroupModerators';
import { ADDRESS_FIELDS, AS_NS } from '../ActivityVocabulary';

/**
 * Whether a received activity may change what it names: Create, Update and Delete act only on
 * objects of their sender, never on this server's. A Create is kept when its object and all its
 * authors are on the sender's server (PeerTube attributes a video to the account and its channel,
 * Mobilizon an event to its group). An Update or Delete of another actor's object is also accepted
 * when a Group announced it, the object was posted to that Group, and the sender moderates it
 * (Lemmy's and Mbin's moderators removing a comment of another server's user).
 */
export class InboundPermissions {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly moderators?: GroupModerators,
  ) {
    this.urls = new ActorUrls(baseUrl);
  }

  /**
   * @param announcer - The Group whose Announce carried the activity, if one did.
   */
  public async mayApply(activity: Json, sender: string, announcer?: string): Promise<boolean> {
    const type = typeOf(activity);
    if (type !== 'Create' && type !== 'Update' && type !== 'Delete') {
      return true;
    }
    const objectId = idOf(activity.object);
    if (!objectId) {
      return false;
    }
    if (this.urls.usernameOf(objectId) || objectId.startsWith(this.urls.base)) {
      // Nobody elsewhere may create, update or delete this server's own objects.
      return false;
    }
    if (type === 'Create') {
      const owners = isObject(activity.object) ? idsOf(activity.object.attributedTo) : [];
      return sameOrigin(objectId, sender) && owners.every((owner): boolean => sameOrigin(owner, sender));
    }
    const stored = await this.store.read(objectId);
    if (!stored) {
      // Unknown object: only its own origin may speak for it.
      return sameOrigin(objectId, sender);
    }
    const about = stored.data.filter((entry): boolean => entry.subject.value === objectId);
    const owners = about.filter((entry): boolean => entry.predicate.value === `${AS_NS}attributedTo`)
      .map((entry): string => entry.object.value);
    if (owners.includes(sender) || (owners.length === 0 && sameOrigin(objectId, sender))) {
      return true;
    }
    const postedTo = new Set(about.filter((entry): boolean => ADDRESS_FIELDS.some((field): boolean =>
      entry.predicate.value === `${AS_NS}${field}`)).map((entry): string => entry.object.value));
    return announcer !== undefined && postedTo.has(announcer) && this.moderators !== undefined &&
      await this.moderators.isModerator(announcer, sender);
  }
}
