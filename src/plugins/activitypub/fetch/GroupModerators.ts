import { LRUCache } from 'lru-cache';
import type { Json } from '../ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../ActivityJson';
import { RemoteFetchError } from './FetchErrors';
import type { RemoteActorCache } from './RemoteActorCache';
import type { RemoteFetcher } from './RemoteFetcher';

/**
 * The moderators of a remote Group (a Lemmy community, an Mbin magazine): the collection its actor
 * document names in `moderators` (Mbin) or `attributedTo` (Lemmy), on the Group's own server, read
 * from its first page at most (the whole list where it is not paged, as both serve it). Cached for
 * `ttlMs` per Group, for at most `maxGroups` Groups (any activity can name a Group, so the cache must
 * not grow with what others send: the least recently asked is dropped). A network failure is thrown (the job is tried again later); a Group that names
 * no such collection, or serves none, has no moderators.
 */
export class GroupModerators {
  private readonly groups: LRUCache<string, Set<string>>;

  public constructor(
    private readonly actors: RemoteActorCache,
    private readonly fetcher: RemoteFetcher,
    ttlMs = 600_000,
    maxGroups = 1000,
  ) {
    this.groups = new LRUCache({ max: maxGroups, ttl: ttlMs });
  }

  public async isModerator(group: string, actor: string): Promise<boolean> {
    let moderators = this.groups.get(group);
    if (!moderators) {
      moderators = await this.fetchModerators(group);
      this.groups.set(group, moderators);
    }
    return moderators.has(actor);
  }

  private async fetchModerators(group: string): Promise<Set<string>> {
    try {
      const document = await this.actors.getActor(group);
      if (typeOf(document) !== 'Group') {
        return new Set();
      }
      const url = idOf(document.moderators) ?? idOf(document.attributedTo);
      if (!url) {
        return new Set();
      }
      const origin = new URL(group).origin;
      let collection = await this.collection(url, origin);
      if (collection && !collection.orderedItems && !collection.items) {
        collection = isObject(collection.first) ? collection.first : await this.collection(idOf(collection.first), origin);
      }
      return new Set(idsOf(collection?.orderedItems ?? collection?.items));
    } catch (error: unknown) {
      if (error instanceof RemoteFetchError && error.retryable) {
        throw error;
      }
      return new Set();
    }
  }

  /** The collection (or page) at `url`, when it is on the Group's server `origin`. */
  private async collection(url: string | undefined, origin: string): Promise<Json | undefined> {
    if (!url || new URL(url).origin !== origin) {
      return undefined;
    }
    const answer = await this.fetcher.getJson(url);
    return answer.status >= 200 && answer.status < 300 && isObject(answer.json) ? answer.json : undefined;
  }
}
