import { getLoggerFor } from '@solid/community-server';
import { messageOf } from '../../util/Errors';
import type { Json } from '../activitypub/ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import { PUBLIC_FORMS } from '../activitypub/ActivityVocabulary';
import type { RemoteActorCache } from '../activitypub/fetch/RemoteActorCache';
import type { MastodonRecords } from './MastodonRecords';
import type { MastodonStatuses, Reader } from './MastodonStatuses';
import type { MastodonStatus } from './StatusEntity';

export interface RemoteAccountPostsOptions {
  actors: RemoteActorCache;
  activities: ActivityRepository;
  records: MastodonRecords;
  statuses: MastodonStatuses;
  /** How long one fetch of an actor's outbox is used (and a failed one remembered). */
  ttlMs?: number;
  /** Most posts taken from the outbox's first page. */
  maxPosts?: number;
  /** Most actors whose recent posts are remembered. */
  maxActors?: number;
}

/** Objects kept as statuses (as a search keeps them). */
const STATUS_TYPES = new Set([ 'Note', 'Question', 'Article', 'Page', 'Video', 'Audio', 'Image', 'Event' ]);

interface Entry {
  /** The kept posts' IRIs, newest first as the outbox lists them. */
  posts: string[];
  until: number;
}

/**
 * A remote account's recent public posts, for its profile: the first page of its outbox, fetched on
 * demand through the outbound guard (RemoteActorCache, signed as the server's fetches are), one page
 * and at most `maxPosts` posts. The posts of Creates whose objects are embedded, public and by the
 * actor on its own server are kept (as a search keeps a post it fetched) so they have ids and act
 * like any other status; nothing else is fetched (no item fetched one by one). One fetch serves
 * `ttlMs` per actor; a failure gives no posts and is remembered as long.
 */
export class RemoteAccountPosts {
  protected readonly logger = getLoggerFor(this);
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  private readonly ttlMs: number;
  private readonly maxPosts: number;
  private readonly maxActors: number;

  public constructor(private readonly options: RemoteAccountPostsOptions) {
    this.ttlMs = options.ttlMs ?? 300_000;
    this.maxPosts = options.maxPosts ?? 20;
    this.maxActors = options.maxActors ?? 1000;
  }

  /**
   * The actor's recent posts as the reader may read them, newest first. Only with `fetching` (a
   * reader who is a user, as a search resolves only for one) is the outbox fetched; otherwise what
   * a fetch kept, if any.
   */
  public async recent(actor: string, reader: Reader, fetching = true): Promise<MastodonStatus[]> {
    const kept = this.entries.get(actor);
    const entry = fetching ? await this.entry(actor) : kept && kept.until > Date.now() ? kept : undefined;
    if (!entry) {
      return [];
    }
    const shown = await Promise.all(entry.posts.map(async(iri): Promise<MastodonStatus | undefined> => {
      try {
        return await this.options.statuses.get(await this.options.records.idOf(iri), reader);
      } catch {
        // Deleted since, or not readable by this reader.
        return undefined;
      }
    }));
    const statuses = shown.filter((status): status is MastodonStatus => status !== undefined)
      .sort((first, second): number => second.created_at.localeCompare(first.created_at));
    return this.options.statuses.filtered(statuses, reader, 'account');
  }

  private async entry(actor: string): Promise<Entry> {
    const known = this.entries.get(actor);
    if (known && known.until > Date.now()) {
      return known;
    }
    let pending = this.inflight.get(actor);
    if (!pending) {
      pending = this.fetch(actor).then((posts): Entry => {
        const entry = { posts, until: Date.now() + this.ttlMs };
        this.entries.delete(actor);
        this.entries.set(actor, entry);
        if (this.entries.size > this.maxActors) {
          this.entries.delete(this.entries.keys().next().value!);
        }
        return entry;
      }).finally((): void => {
        this.inflight.delete(actor);
      });
      this.inflight.set(actor, pending);
    }
    return pending;
  }

  /** The outbox's first page, its public posts by the actor kept; the kept posts' IRIs. */
  private async fetch(actor: string): Promise<string[]> {
    const { actors, activities } = this.options;
    try {
      const document = await actors.getActor(actor);
      const outbox = idOf(document.outbox);
      if (!outbox || !sameOrigin(outbox, document.id)) {
        return [];
      }
      const collection = await actors.fetchDocument(outbox);
      const page = isObject(collection.first) ? collection.first :
        collection.orderedItems ?? collection.items ? collection :
          idOf(collection.first) && sameOrigin(idOf(collection.first)!, document.id) ? await actors.fetchDocument(idOf(collection.first)!) : undefined;
      const items = page?.orderedItems ?? page?.items;
      const posts: string[] = [];
      for (const item of Array.isArray(items) ? items : []) {
        if (posts.length >= this.maxPosts) {
          break;
        }
        const object = isObject(item) && typeOf(item) === 'Create' && idOf(item.actor) === document.id ? item.object : undefined;
        if (isObject(object) && this.keepable(object as Json & { id?: unknown }, document.id)) {
          const post = object as Json & { id: string };
          if (!await activities.exists(post.id)) {
            await activities.storeRemote(post, new Date(), false, false);
          }
          posts.push(post.id);
        }
      }
      return posts;
    } catch (error: unknown) {
      this.logger.debug(`No recent posts of ${actor}: ${messageOf(error)}`);
      return [];
    }
  }

  /** A post is kept only when public, attributed to the actor and on the actor's server (who may speak for it). */
  private keepable(object: Json & { id?: unknown }, actor: string): boolean {
    const addressed = [ ...idsOf(object.to), ...idsOf(object.cc) ];
    return typeof object.id === 'string' && STATUS_TYPES.has(typeOf(object) ?? '') && idOf(object.attributedTo) === actor &&
      sameOrigin(object.id, actor) && addressed.some((iri): boolean => PUBLIC_FORMS.has(iri));
  }
}

function sameOrigin(first: string, second: string): boolean {
  try {
    return new URL(first).origin === new URL(second).origin;
  } catch {
    return false;
  }
}
