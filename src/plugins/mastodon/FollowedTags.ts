import { DataFactory } from 'n3';
import { v7 as uuidv7 } from 'uuid';
import type { CollectionAddition, Collections } from '../../storage/Collections';
import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri, sparqlLiteral } from '../../storage/SparqlTerms';
import { FEDPOD_NS, XSD_DATETIME } from '../../storage/StoreVocabulary';
import type { ActivityEvent, ActivityEvents } from '../activitypub/ActivityEvents';
import { idOf, idsOf, isObject, typeOf } from '../activitypub/ActivityJson';
import { PUBLIC_FORMS } from '../activitypub/ActivityVocabulary';
import { ActorUrls } from '../activitypub/ActorUrls';
import type { AccountDataRemover } from '../accounts/AccountDataRemover';
import { HASHTAG_NAME } from './MastodonSearch';
import { recordNotFound } from './MastodonRecords';
import { hashtagsOf } from './StatusEntity';

const { literal, namedNode } = DataFactory;

const P = {
  key: `${FEDPOD_NS}followedTagKey`,
  at: `${FEDPOD_NS}followedTagAt`,
  follow: `${FEDPOD_NS}followedTagFollow`,
};
const GRAPH_PREFIX = 'urn:fedpod:mastodon:followed-tags:';
const FEED_PREFIX = 'urn:fedpod:mastodon:tag-feed:';
/** Mastodon keeps a hashtag's name to 100 characters too. */
const MAX_NAME = 100;

/** Mastodon's Tag entity, as the tag endpoints answer it. */
export interface MastodonTagEntity {
  id: string;
  name: string;
  url: string;
  history: unknown[];
  following?: boolean;
}

/** A tag a user follows, and when (the id of the follow pages the list, as a UUIDv7 of that time). */
export interface TagFollow {
  name: string;
  followId: string;
  at: Date;
}

/** Told which users' feeds took an activity (the streaming API sends it to their `user` stream). */
export type FeedListener = (event: ActivityEvent, recipients: string[]) => void;

export interface FollowedTagsOptions {
  client: SparqlClient;
  collections: Collections;
  events: ActivityEvents;
  /** Public base URL. */
  baseUrl: string;
}

/**
 * The hashtags each local user follows (Mastodon's followed tags), and their tag feeds: a public
 * post (to Public, as Mastodon: not unlisted, not a reblog) with a followed tag that is posted here
 * or reaches any local inbox is added to the feed of every user following the tag, a collection the
 * home timeline merges with the user's inbox and outbox (`homeCollections`). Only what arrives after the
 * follow, as on Mastodon. A post the user already has in their inbox or outbox is not added twice
 * (the timeline merges duplicates anyway). The feed is written after the activity is stored, as
 * notifications are (ActivityEvents): a crash between the two loses the feed entry, never the post.
 *
 * Kept in the store, a graph per user (`urn:fedpod:mastodon:followed-tags:<actor>`) and a feed
 * collection per user (`urn:fedpod:mastodon:tag-feed:<actor>`): neither has an HTTP address, so
 * nobody reads them but through the API, as their user.
 */
export class FollowedTags implements AccountDataRemover {
  private readonly options: FollowedTagsOptions;
  private readonly urls: ActorUrls;
  private readonly listeners: FeedListener[] = [];

  public constructor(options: FollowedTagsOptions) {
    this.options = options;
    this.urls = new ActorUrls(options.baseUrl);
    options.events.listen(async(event): Promise<void> => this.activity(event));
  }

  /** Whether the name (with or without `#`) can be a hashtag's. */
  public static isTagName(name: string): boolean {
    const bare = name.replace(/^#/u, '');
    return bare.length > 0 && bare.length <= MAX_NAME && HASHTAG_NAME.test(bare);
  }

  /** The tag's name as Mastodon keys it (lowercase, without `#`); 404 for what cannot be a hashtag. */
  public static keyOf(name: string): string {
    if (!FollowedTags.isTagName(name)) {
      throw recordNotFound();
    }
    return name.replace(/^#/u, '').toLowerCase();
  }

  /** The Tag entity; `following` when a user asks. */
  public async entity(name: string, username?: string): Promise<MastodonTagEntity> {
    const key = FollowedTags.keyOf(name);
    const tag: MastodonTagEntity = { id: key, name: key, url: `${this.urls.base}tags/${encodeURIComponent(key)}`, history: []};
    if (username !== undefined) {
      tag.following = (await this.followed(username, [ key ])).has(key);
    }
    return tag;
  }

  /** The user follows the tag (again: nothing changes). */
  public async follow(username: string, name: string): Promise<MastodonTagEntity> {
    const key = FollowedTags.keyOf(name);
    const now = new Date();
    const graph = sparqlIri(this.graphOf(username));
    const subject = sparqlIri(this.subjectOf(username, key));
    // One update, written only when the tag is not followed yet: a second follow keeps the first's time.
    await this.options.client.update(`INSERT { GRAPH ${graph} { ${subject} ${sparqlIri(P.key)} ${sparqlLiteral(literal(key))} ; ${
      sparqlIri(P.follow)} ${sparqlLiteral(literal(uuidv7({ msecs: now.getTime() })))} ; ${
      sparqlIri(P.at)} ${sparqlLiteral(literal(now.toISOString(), namedNode(XSD_DATETIME)))} } }
WHERE { FILTER NOT EXISTS { GRAPH ${graph} { ${subject} ${sparqlIri(P.key)} ?any } } }`);
    return { ...await this.entity(key), following: true };
  }

  /** The user no longer follows the tag; its posts already in their feed stay, as on Mastodon. */
  public async unfollow(username: string, name: string): Promise<MastodonTagEntity> {
    const key = FollowedTags.keyOf(name);
    await this.options.client.update(`DELETE WHERE { GRAPH ${sparqlIri(this.graphOf(username))} { ${
      sparqlIri(this.subjectOf(username, key))} ?p ?o } }`);
    return { ...await this.entity(key), following: false };
  }

  /** Which of these tag keys the user follows. */
  public async followed(username: string, keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) {
      return new Set();
    }
    const rows = await this.options.client.select(`SELECT ?k WHERE { VALUES ?k { ${keys.map((key): string => sparqlLiteral(literal(key)))
      .join(' ')} } GRAPH ${sparqlIri(this.graphOf(username))} { ?s ${sparqlIri(P.key)} ?k } }`);
    return new Set(rows.map((row): string => row.k.value));
  }

  /** A page of the tags the user follows, the latest followed first (`before`/`after`: times of follows, Mastodon's max_id/since_id). */
  public async list(username: string, page: { limit: number; before?: Date; after?: Date; ascending?: boolean }): Promise<TagFollow[]> {
    const time = (date: Date): string => sparqlLiteral(literal(date.toISOString(), namedNode(XSD_DATETIME)));
    const filters = [ ...page.before ? [ `?at < ${time(page.before)}` ] : [], ...page.after ? [ `?at > ${time(page.after)}` ] : [] ];
    const direction = page.ascending ? 'ASC' : 'DESC';
    const rows = await this.options.client.select(`SELECT ?k ?f ?at WHERE { GRAPH ${sparqlIri(this.graphOf(username))} {
  ?s ${sparqlIri(P.key)} ?k ; ${sparqlIri(P.follow)} ?f ; ${sparqlIri(P.at)} ?at }
  ${filters.length > 0 ? `FILTER(${filters.join(' && ')})` : ''}
} ORDER BY ${direction}(?at) ${direction}(?k) LIMIT ${Math.max(1, Math.floor(page.limit))}`);
    const follows = rows.map((row): TagFollow => ({ name: row.k.value, followId: row.f.value, at: new Date(row.at.value) }));
    return page.ascending ? follows.reverse() : follows;
  }

  /** The local users who follow any of these tag keys. */
  public async followersOf(keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) {
      return [];
    }
    const prefix = `${GRAPH_PREFIX}${this.urls.url('actors')}`;
    const rows = await this.options.client.select(`SELECT DISTINCT ?g WHERE { VALUES ?k { ${keys.map((key): string =>
      sparqlLiteral(literal(key))).join(' ')} } GRAPH ?g { ?s ${sparqlIri(P.key)} ?k } FILTER(STRSTARTS(STR(?g), ${sparqlLiteral(literal(prefix))})) }`);
    return rows.map((row): string | undefined => this.urls.usernameOf(row.g.value.slice(GRAPH_PREFIX.length)))
      .filter((username): username is string => username !== undefined);
  }

  /** Listens to the feeds: who took each activity, once it is in their feeds. */
  public listen(listener: FeedListener): void {
    this.listeners.push(listener);
  }

  /**
   * The local users (beside `usernames`, who have it already) whose feeds take the activity: a Create
   * of a public post with hashtags they follow.
   */
  public async recipientsOf({ activity, usernames }: ActivityEvent): Promise<string[]> {
    if (typeOf(activity) !== 'Create' || !isObject(activity.object)) {
      return [];
    }
    const object = activity.object;
    const to = [ ...idsOf(object.to), ...idsOf(activity.to) ];
    if (!to.some((recipient): boolean => PUBLIC_FORMS.has(recipient))) {
      return [];
    }
    const keys = [ ...new Set(hashtagsOf(object).map((tag): string => tag.name)) ];
    const followers = await this.followersOf(keys);
    return followers.filter((username): boolean => !usernames.includes(username));
  }

  /** A deleted account's tags and feed. */
  public async removeAccountData(username: string): Promise<void> {
    await this.options.client.update(`DELETE WHERE { GRAPH ${sparqlIri(this.graphOf(username))} { ?s ?p ?o } }`);
    await this.options.collections.clear(this.feedOf(username));
  }

  /** The user's tag feed (a collection with no HTTP address). */
  public feedOf(username: string): string {
    return `${FEED_PREFIX}${this.urls.actor(username)}`;
  }

  private async activity(event: ActivityEvent): Promise<void> {
    const id = idOf(event.activity);
    if (!id) {
      return;
    }
    const recipients = await this.recipientsOf(event);
    if (recipients.length > 0) {
      const at = new Date();
      await this.options.collections.addAll(recipients.map((username): CollectionAddition =>
        ({ collection: this.feedOf(username), item: id, at })));
      for (const listener of this.listeners) {
        listener(event, recipients);
      }
    }
  }

  private graphOf(username: string): string {
    return `${GRAPH_PREFIX}${this.urls.actor(username)}`;
  }

  private subjectOf(username: string, key: string): string {
    return `urn:fedpod:mastodon:followed-tag:${encodeURIComponent(key)}:${this.urls.actor(username)}`;
  }
}

/** The collections a user's home timeline merges: inbox and outbox, and the tag feed where hashtags can be followed. */
export function homeCollections(urls: ActorUrls, username: string, followedTags?: FollowedTags): string[] {
  return [ urls.collection(username, 'inbox'), urls.collection(username, 'outbox'), ...followedTags ? [ followedTags.feedOf(username) ] : [] ];
}
