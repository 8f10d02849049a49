import type { Addressing, AudienceRules } from '../../plugins/activitypub/AudienceRules';
import { ADDRESSING_PREDICATES } from '../../plugins/activitypub/AudienceRules';
import type { FoundMedia, MediaStore } from '../../plugins/media/MediaStore';
import { notFound } from '../../util/HttpErrors';
import { agentIri } from '../http/Agent';
import type { Operation } from '../http/Operation';
import type { AccessPolicy } from '../access/AccessPolicy';

/** What MediaAccess read of the request's target, for the handler that serves it. */
export const MEDIA_READ = new WeakMap<Operation, FoundMedia>();

/**
 * Reads of uploaded media (`{base}pods/<user>/media/<id>`, its file and thumbnail): the uploader
 * always; an avatar or header (attached to the actor itself) everyone; once attached to a post, whoever may read that post by the audience rules, exactly as
 * an ActivityPub GET of the post decides (a signed GET of a remote follower included); nobody
 * else, and nobody once the post is deleted. The folder's listing and anything else in it: the
 * storage's owner only (then the storage's WebACL, as for any LDP read). Refusals are 404, as for the post itself, so an
 * upload's existence is not revealed. Writes do not come here (the route takes reads only): the
 * storage's WebACL decides them.
 *
 * Every check reads the upload and the post afresh. Which post an upload is attached to is only
 * remembered as a hint, so that the next read of it asks the store for both at once (one round trip
 * instead of two in turn); a hint the fresh description contradicts is dropped and the read done again.
 * A file or thumbnail's description is read brief (MediaStore.recordWith): only what the check and the
 * handler use.
 */
export class MediaAccess implements AccessPolicy {
  /** Upload description IRI -> the post it was attached to when last read; oldest first. */
  private readonly posts = new Map<string, string>();

  /**
   * @param media - The uploads.
   * @param audience - Who may read a post.
   * @param hints - How many uploads' posts are remembered.
   */
  public constructor(
    private readonly media: MediaStore,
    private readonly audience: AudienceRules,
    private readonly hints = 10_000,
  ) {}

  public async authorize(operation: Operation): Promise<void> {
    if (operation.method === 'OPTIONS') {
      return;
    }
    const read = await this.read(operation.target.iri);
    // Made only when refusing: CSS's error constructor builds an RDF store, a tenth of an allowed read's time.
    const refused = (): Error => notFound(`Nothing at ${operation.target.iri}`);
    if (!read) {
      // The folder itself, or what its owner put there by LDP: theirs alone (their storage's WebACL decides next).
      if (operation.agent.username !== undefined && operation.agent.username === operation.params.user) {
        return;
      }
      throw refused();
    }
    const { found, post } = read;
    // The handler serves what was read here (MediaFileHandler).
    MEDIA_READ.set(operation, found);
    const { record } = found;
    if (agentIri(operation.agent) === record.owner) {
      return;
    }
    if (record.attachedTo === record.owner) {
      // A profile picture (avatar, header): as public as the actor's document.
      return;
    }
    if (!post || post.isTombstone) {
      throw refused();
    }
    if (await this.audience.mayRead(post, agentIri(operation.agent))) {
      return;
    }
    const resolved = await operation.resolveAgent();
    if (resolved !== operation.agent && await this.audience.mayRead(post, agentIri(resolved))) {
      return;
    }
    throw refused();
  }

  /** The upload at `iri` and the addressing of the post it is attached to (none: not attached, or no such post). */
  private async read(iri: string): Promise<{ found: FoundMedia; post?: Addressing } | undefined> {
    const description = this.media.descriptionOf(iri);
    const hint = description === undefined ? undefined : this.posts.get(description);
    if (hint !== undefined) {
      const both = await this.media.recordWith(iri, hint, ADDRESSING_PREDICATES, true);
      if (both?.found.record.attachedTo === hint) {
        return { found: both.found, post: both.other.length === 0 ? undefined : this.audience.addressingIn(hint, both.other) };
      }
      this.posts.delete(description!);
    }
    const found = await this.media.recordOf(iri, true);
    if (!found) {
      return undefined;
    }
    const { record } = found;
    if (record.attachedTo === undefined || record.attachedTo === record.owner) {
      return { found };
    }
    const post = await this.audience.read(record.attachedTo);
    if (this.posts.size >= this.hints) {
      this.posts.delete(this.posts.keys().next().value!);
    }
    this.posts.set(record.iri, record.attachedTo);
    return { found, post: post?.addressing };
  }
}
