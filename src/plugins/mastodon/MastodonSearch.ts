import { getLoggerFor } from '@solid/community-server';
import type { SparqlClient } from '../../storage/SparqlClient';
import { escapeString } from '../../storage/SparqlTerms';
import { messageOf } from '../../util/Errors';
import type { AccountStore } from '../accounts/AccountStore';
import type { Json } from '../activitypub/ActivityJson';
import { typeOf } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import { AS_NS } from '../activitypub/ActivityVocabulary';
import type { RemoteActorCache } from '../activitypub/fetch/RemoteActorCache';
import { RemotePosts } from '../activitypub/fetch/RemotePosts';
import type { WebFingerResolver } from '../activitypub/fetch/WebFingerResolver';
import { looksLikeHandle, parseHandle } from '../activitypub/fetch/WebFingerResolver';
import type { MastodonAccount } from './AccountEntity';
import type { MastodonAccounts } from './MastodonAccounts';
import type { MastodonRecords } from './MastodonRecords';
import type { MastodonStatuses, Reader } from './MastodonStatuses';
import type { MastodonStatus } from './StatusEntity';

export interface MastodonSearchOptions {
  accounts: MastodonAccounts;
  statuses: MastodonStatuses;
  records: MastodonRecords;
  activities: ActivityRepository;
  /** This server's accounts, for usernames that start with the query. */
  accountStore: AccountStore;
  resolver: WebFingerResolver;
  actors: RemoteActorCache;
  /** Hashtag names of stored posts. */
  client: SparqlClient;
}

export interface SearchQuery {
  q: string;
  type?: 'accounts' | 'statuses' | 'hashtags';
  /** Fetch what is not here yet (only for a reader who is a user). */
  resolve: boolean;
  limit: number;
  offset: number;
}

export interface MastodonTag {
  name: string;
  url: string;
  history: unknown[];
}

export interface SearchResults {
  accounts: MastodonAccount[];
  statuses: MastodonStatus[];
  hashtags: MastodonTag[];
}

/** What may be a hashtag's name: letters, digits and underscores, at least one letter. */
export const HASHTAG_NAME = /^[\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*$/u;
const ACTOR_TYPES = new Set([ 'Person', 'Service', 'Application', 'Group', 'Organization' ]);

/**
 * Search for the Mastodon API (`GET /api/v2/search`): accounts by handle (`user`, `@user@host`,
 * `acct:`), by actor URL or by the start of a local username; statuses by URL; hashtags by the start
 * of their name among stored posts. With `resolve` and a reader who is a user, what is not here yet
 * is fetched: a handle by WebFinger and its actor, a URL as an actor or a public post (kept, so it has
 * an id), all through the outbound guard and signed as the server's actor fetches are. Nothing is
 * fetched for anyone else. Statuses are shown as the reader may see them.
 */
export class MastodonSearch {
  protected readonly logger = getLoggerFor(this);
  private readonly options: MastodonSearchOptions;
  private readonly posts: RemotePosts;

  public constructor(options: MastodonSearchOptions) {
    this.options = options;
    this.posts = new RemotePosts(options.actors, options.activities);
  }

  public async search(query: SearchQuery, reader: Reader): Promise<SearchResults> {
    const q = query.q.trim();
    const results: SearchResults = { accounts: [], statuses: [], hashtags: []};
    if (q === '') {
      return results;
    }
    const fetching = query.resolve && reader.username !== undefined;
    const wants = (type: SearchQuery['type']): boolean => query.type === undefined || query.type === type;
    if (/^https?:\/\//iu.test(q)) {
      await this.byUrl(q, fetching, reader, results);
    } else if (wants('accounts')) {
      results.accounts = await this.accountsByName(q, fetching);
    }
    if (wants('hashtags') && !/^https?:\/\//iu.test(q)) {
      results.hashtags = await this.hashtags(q.replace(/^#/u, ''), query.limit + query.offset);
    }
    const window = <T>(items: T[]): T[] => items.slice(query.offset, query.offset + query.limit);
    return {
      accounts: wants('accounts') ? window(results.accounts) : [],
      statuses: wants('statuses') ? window(results.statuses) : [],
      hashtags: wants('hashtags') ? window(results.hashtags) : [],
    };
  }

  /** A handle (local, or fetched when `fetching`), or the local accounts whose username starts with the query. */
  private async accountsByName(q: string, fetching: boolean): Promise<MastodonAccount[]> {
    const { accounts, resolver, accountStore, actors } = this.options;
    const handle = parseHandle(q, resolver.host);
    if (handle && looksLikeHandle(q)) {
      if (handle.host === resolver.host) {
        const local = await accounts.lookup(handle.username);
        return local ? [ local ] : [];
      }
      if (!fetching) {
        // Only what is known here: a handle resolved before whose actor is still kept.
        const known = resolver.peek(q);
        const actor = known ? actors.peekActor(known) : undefined;
        return actor ? [ await accounts.accountOf(actor.id) ] : [];
      }
      try {
        const actor = await actors.getActor(await resolver.resolve(q));
        return [ await accounts.accountOf(actor.id) ];
      } catch (error: unknown) {
        this.logger.debug(`Search for ${q} found no account: ${messageOf(error)}`);
        return [];
      }
    }
    const prefix = q.replace(/^@/u, '').toLowerCase();
    if (!/^[a-z0-9_.-]+$/u.test(prefix)) {
      return [];
    }
    const usernames = (await accountStore.list()).filter((name): boolean => name.startsWith(prefix)).sort().slice(0, 40);
    return Promise.all(usernames.map(async(name): Promise<MastodonAccount> => accounts.accountOf(accounts.urls.actor(name))));
  }

  /** A URL: a stored status or a known actor; with `fetching`, what it names on its server. */
  private async byUrl(url: string, fetching: boolean, reader: Reader, results: SearchResults): Promise<void> {
    const { accounts, activities, actors } = this.options;
    if (accounts.urls.usernameOf(url) !== undefined) {
      const account = await accounts.lookup(accounts.urls.usernameOf(url)!);
      results.accounts = account ? [ account ] : [];
      return;
    }
    if (await activities.exists(url)) {
      results.statuses = await this.statusOf(url, reader);
      return;
    }
    const known = actors.peekActor(url);
    if (known) {
      results.accounts = [ await accounts.accountOf(known.id) ];
      return;
    }
    if (!fetching || url.startsWith(accounts.urls.base)) {
      return;
    }
    let document: Json & { id: string };
    try {
      document = await actors.fetchDocument(url);
    } catch (error: unknown) {
      this.logger.debug(`Search for ${url} fetched nothing: ${messageOf(error)}`);
      return;
    }
    const type = typeOf(document) ?? '';
    if (ACTOR_TYPES.has(type)) {
      try {
        results.accounts = [ await accounts.accountOf((await actors.getActor(document.id)).id) ];
      } catch {
        // Not a valid actor: nothing.
      }
      return;
    }
    if (await this.posts.keep(document)) {
      results.statuses = await this.statusOf(document.id, reader);
    }
  }

  private async statusOf(iri: string, reader: Reader): Promise<MastodonStatus[]> {
    try {
      return [ await this.options.statuses.get(await this.options.records.idOf(iri), reader) ];
    } catch {
      // Not readable by this reader, or not a status.
      return [];
    }
  }

  /** Hashtags of stored posts whose name starts with `prefix` (case-insensitive). */
  private async hashtags(prefix: string, limit: number): Promise<MastodonTag[]> {
    if (!HASHTAG_NAME.test(prefix)) {
      return [];
    }
    const start = `#${prefix.toLowerCase()}`;
    const rows = await this.options.client.select(`SELECT DISTINCT ?name WHERE { GRAPH ?g { ?tag a <${AS_NS}Hashtag> ; <${AS_NS}name> ?name } ` +
      `FILTER(STRSTARTS(LCASE(STR(?name)), "${escapeString(start)}")) } LIMIT ${Math.max(1, Math.min(limit, 80))}`);
    const names = new Set(rows.map((row): string => row.name.value.replace(/^#/u, '').toLowerCase()));
    return [ ...names ].sort().map((name): MastodonTag => ({ name, url: `${this.options.accounts.urls.base}tags/${encodeURIComponent(name)}`,
      history: []}));
  }
}
