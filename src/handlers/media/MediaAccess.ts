import type { AudienceRules } from '../../plugins/activitypub/AudienceRules';
import type { MediaRecord, MediaStore, StoredMediaFile } from '../../plugins/media/MediaStore';
import { notFound } from '../../util/HttpErrors';
import { agentIri } from '../http/Agent';
import type { Operation } from '../http/Operation';
import type { AccessPolicy } from '../access/AccessPolicy';

/** What MediaAccess read of the request's target, for the handler that serves it. */
export const MEDIA_READ = new WeakMap<Operation, { record: MediaRecord; file?: StoredMediaFile }>();

/**
 * Reads of uploaded media (`{base}pods/<user>/media/<id>`, its file and thumbnail): the uploader
 * always; an avatar or header (attached to the actor itself) everyone; once attached to a post, whoever may read that post by the audience rules, exactly as
 * an ActivityPub GET of the post decides (a signed GET of a remote follower included); nobody
 * else, and nobody once the post is deleted. The folder's listing and anything else in it: the
 * storage's owner only (then the storage's WebACL, as for any LDP read). Refusals are 404, as for the post itself, so an
 * upload's existence is not revealed. Writes do not come here (the route takes reads only): the
 * storage's WebACL decides them.
 */
export class MediaAccess implements AccessPolicy {
  public constructor(
    private readonly media: MediaStore,
    private readonly audience: AudienceRules,
  ) {}

  public async authorize(operation: Operation): Promise<void> {
    if (operation.method === 'OPTIONS') {
      return;
    }
    const found = await this.media.recordOf(operation.target.iri);
    const refused = notFound(`Nothing at ${operation.target.iri}`);
    if (!found) {
      // The folder itself, or what its owner put there by LDP: theirs alone (their storage's WebACL decides next).
      if (operation.agent.username !== undefined && operation.agent.username === operation.params.user) {
        return;
      }
      throw refused;
    }
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
    const post = record.attachedTo === undefined ? undefined : await this.audience.read(record.attachedTo);
    if (!post || post.addressing.isTombstone) {
      throw refused;
    }
    if (await this.audience.mayRead(post.addressing, agentIri(operation.agent))) {
      return;
    }
    const resolved = await operation.resolveAgent();
    if (resolved !== operation.agent && await this.audience.mayRead(post.addressing, agentIri(resolved))) {
      return;
    }
    throw refused;
  }
}
