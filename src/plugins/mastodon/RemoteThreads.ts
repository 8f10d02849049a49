import { getLoggerFor } from '@solid/community-server';
import { messageOf } from '../../util/Errors';
import type { Json } from '../activitypub/ActivityJson';
import { idOf, idsOf, isObject } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import type { RemoteActorCache } from '../activitypub/fetch/RemoteActorCache';
import { RemotePosts } from '../activitypub/fetch/RemotePosts';
import type { UserDomainBlocks } from '../moderation/UserDomainBlocks';
import type { MastodonRecords } from './MastodonRecords';
import type { Reader } from './MastodonStatuses';

export interface RemoteThreadsOptions {
  baseUrl: string;
  activities: ActivityRepository;
  /** Fetches through the outbound guard, signed by the instance actor; refuses suspended domains. */
  actors: RemoteActorCache;
  /** The stored replies to a post. */
  records: MastodonRecords;
  /** The users' own domain blocks: nothing is fetched from them for that user (none: nobody blocks). */
  userDomainBlocks?: UserDomainBlocks;
  /** Most ancestors fetched (following `inReplyTo` up). */
  maxAncestors?: number;
  /** Most descendants fetched, breadth first. */
  maxDescendants?: number;
  /** Most pages read of one `replies` collection. */
  maxPages?: number;
  /** Most known posts walked for their replies in one read. */
  maxWalked?: number;
  /** How long a post's fetched parent or replies are not fetched again. */
  freshMs?: number;
  /** How long a read waits for the fetches; the rest go on after the answer. */
  waitMs?: number;
  /** Most remembered fetch times (the oldest are forgotten first). */
  maxRemembered?: number;
}

/**
 * Fetches the parts of a thread that are on other servers when a user reads a status's context:
 * the missing ancestors (`inReplyTo` up, at most `maxAncestors`) and the descendants listed in the
 * remote posts' `replies` collections (breadth first, at most `maxDescendants` posts and `maxPages`
 * pages a collection). What is fetched is kept as received objects are (RemotePosts: public posts
 * by an author of the serving server only), so the context then shows it with the audience rules.
 * Only a user's read fetches (an anonymous one could make the server fetch for anyone); nothing is
 * fetched from a domain the reader blocked, nor (the fetcher refuses) from a suspended one. A
 * post's parent and replies are fetched once per `freshMs`, whoever reads; the same read by the same
 * user shares the fetch under way. A read waits at most `waitMs` for the fetches, so a slow peer
 * does not hold the answer: what is fetched later is there for the next read.
 */
export class RemoteThreads {
  protected readonly logger = getLoggerFor(this);
  private readonly options: Required<Omit<RemoteThreadsOptions, 'userDomainBlocks'>> & Pick<RemoteThreadsOptions, 'userDomainBlocks'>;
  private readonly posts: RemotePosts;
  /** When a post's parent (`object <iri>`) or replies (`replies <iri>`) were last fetched. */
  private readonly fetched = new Map<string, number>();
  private readonly underway = new Map<string, Promise<void>>();

  public constructor(options: RemoteThreadsOptions) {
    this.options = { maxAncestors: 20, maxDescendants: 60, maxPages: 2, maxWalked: 500, freshMs: 300_000, waitMs: 3_000,
      maxRemembered: 10_000, ...options };
    this.posts = new RemotePosts(options.actors, options.activities);
  }

  /** Fetches what is missing of the thread of `iri` for a user, waiting at most `waitMs`. */
  public async fetch(iri: string, reader: Reader): Promise<void> {
    if (reader.username === undefined) {
      return;
    }
    const key = `${reader.username} ${iri}`;
    let work = this.underway.get(key);
    if (!work) {
      work = this.walk(iri, reader.username).catch((error: unknown): void => {
        this.logger.warn(`Fetching the thread of ${iri} failed: ${messageOf(error)}`);
      }).finally((): void => {
        this.underway.delete(key);
      });
      this.underway.set(key, work);
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ work, new Promise<void>((resolve): void => {
      timer = setTimeout(resolve, this.options.waitMs);
    }) ]);
    clearTimeout(timer);
  }

  private async walk(iri: string, username: string): Promise<void> {
    await this.ancestors(iri, username);
    await this.descendants(iri, username);
  }

  /** Follows `inReplyTo` up, fetching each parent not stored here. */
  private async ancestors(iri: string, username: string): Promise<void> {
    let current = await this.options.activities.read(iri);
    for (let depth = 0; current && depth < this.options.maxAncestors; depth += 1) {
      const parent = idOf(current.inReplyTo);
      if (parent === undefined) {
        return;
      }
      current = await this.options.activities.read(parent) ??
        (await this.mayFetch(`object ${parent}`, parent, username) ? await this.fetchPost(parent) : undefined);
    }
  }

  /** Breadth first from `iri`: the stored replies of each post, and those its server lists when it is remote. */
  private async descendants(iri: string, username: string): Promise<void> {
    const { records, activities, maxDescendants, maxWalked } = this.options;
    const queue = [ iri ];
    const seen = new Set(queue);
    let budget = maxDescendants;
    for (let walked = 0; walked < queue.length && walked < maxWalked && budget > 0; walked += 1) {
      const post = queue[walked];
      const children = new Set(await records.repliesTo(post));
      if (await this.mayFetch(`replies ${post}`, post, username)) {
        for (const item of await this.listedReplies(post)) {
          if (budget <= 0) {
            break;
          }
          if (children.has(item) || seen.has(item) || await activities.exists(item) ||
            !await this.mayFetch(`object ${item}`, item, username)) {
            continue;
          }
          budget -= 1;
          const fetched = await this.fetchPost(item);
          if (fetched && idOf(fetched.inReplyTo) === post) {
            children.add(item);
          }
        }
      }
      for (const child of children) {
        if (!seen.has(child)) {
          seen.add(child);
          queue.push(child);
        }
      }
    }
  }

  /** The items of a remote post's `replies` (at most `maxPages` pages), read from its server; [] when none can be read. */
  private async listedReplies(post: string): Promise<string[]> {
    const { actors, activities, maxPages } = this.options;
    try {
      // A delivered copy often does not name its collection (Fedpod adds it when serving): read the post then.
      let replies = (await activities.read(post))?.replies;
      if (replies === undefined) {
        replies = (await actors.fetchDocument(post)).replies;
      }
      const origin = new URL(post).origin;
      const sameServer = (url: string): boolean => new URL(url).origin === origin;
      // Named (or embedded with its id, maybe long ago): read as its server serves it now.
      let collection: unknown = idOf(replies) ?? replies;
      if (typeof collection === 'string') {
        collection = sameServer(collection) ? await actors.fetchDocument(collection) : undefined;
      }
      if (!isObject(collection)) {
        return [];
      }
      // A collection without pages lists its items itself.
      let page: unknown = collection.first ?? collection;
      const items: string[] = [];
      for (let pages = 0; page !== undefined && pages < maxPages; pages += 1) {
        if (typeof page === 'string') {
          page = sameServer(page) ? await actors.fetchDocument(page) : undefined;
        }
        if (!isObject(page)) {
          break;
        }
        items.push(...idsOf(page.orderedItems ?? page.items));
        page = (page as Json).next;
      }
      return items;
    } catch (error: unknown) {
      this.logger.debug(`The replies of ${post} could not be read: ${messageOf(error)}`);
      return [];
    }
  }

  private async fetchPost(url: string): Promise<Json | undefined> {
    try {
      return await this.posts.fetch(url);
    } catch (error: unknown) {
      this.logger.debug(`${url} could not be fetched for a thread: ${messageOf(error)}`);
      return undefined;
    }
  }

  /**
   * Whether what `key` names (a post's parent or replies) at `url` is to be fetched now: a remote
   * http(s) URL, not of a domain the user blocked, not fetched within `freshMs`. A yes is remembered
   * as the fetch's time.
   */
  private async mayFetch(key: string, url: string, username: string): Promise<boolean> {
    if (url.startsWith(this.options.baseUrl) || !/^https?:\/\//iu.test(url)) {
      return false;
    }
    const last = this.fetched.get(key);
    if (last !== undefined && Date.now() - last < this.options.freshMs) {
      return false;
    }
    if (await this.options.userDomainBlocks?.blocks(username, url) === true) {
      return false;
    }
    this.fetched.delete(key);
    this.fetched.set(key, Date.now());
    if (this.fetched.size > this.options.maxRemembered) {
      this.fetched.delete(this.fetched.keys().next().value!);
    }
    return true;
  }
}
