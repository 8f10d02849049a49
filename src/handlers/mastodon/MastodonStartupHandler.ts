import type { Collections } from '../../storage/Collections';
import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonPeers } from '../../plugins/mastodon/MastodonPeers';
import type { MastodonSearch, SearchQuery } from '../../plugins/mastodon/MastodonSearch';
import { FedpodHttpError } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';

const SEARCH_TYPES = new Set([ 'accounts', 'statuses', 'hashtags' ]);
/** Most accounts asked about at once by familiar_followers, and most familiar followers shown for each. */
const MAX_IDS = 40;
const MAX_FAMILIAR = 80;

/**
 * What apps ask for when they start and that Fedpod answers from what it has, by the route's name:
 * `mastodon-preferences` (Mastodon's defaults: Fedpod keeps no posting or reading preferences yet),
 * `mastodon-instance-peers` (the domains it federated with), `mastodon-familiar-followers`
 * (`id[]`: who of those the user follows follows each account), `mastodon-search-v1` (v2 search
 * with hashtags as names, as Mastodon 3's v1 answered) and `mastodon-empty` (`[]`: announcements,
 * trends and suggestions, which Fedpod does not have; apps show an error on a 404).
 */
export class MastodonStartupHandler extends MastodonHandler {
  public constructor(
    private readonly accounts: MastodonAccounts,
    private readonly collections: Collections,
    private readonly peers: MastodonPeers,
    private readonly search: MastodonSearch,
  ) {
    super();
  }

  protected async serve({ response, operation }: OperationInput): Promise<void> {
    const query = operation.target.query;
    switch (operation.route.name) {
      case 'mastodon-preferences':
        sendJson(response, 200, {
          'posting:default:visibility': 'public',
          'posting:default:sensitive': false,
          'posting:default:language': null,
          'reading:expand:media': 'default',
          'reading:expand:spoilers': false,
          'reading:autoplay:gifs': false,
        });
        return;
      case 'mastodon-instance-peers':
        sendJson(response, 200, await this.peers.peers());
        return;
      case 'mastodon-familiar-followers': {
        const ids = [ ...new Set([ ...query.getAll('id[]'), ...query.getAll('id') ]) ].slice(0, MAX_IDS);
        const answer = [];
        for (const id of ids) {
          answer.push({ id, accounts: await this.familiarFollowers(operation.agent.username!, id) });
        }
        sendJson(response, 200, answer);
        return;
      }
      case 'mastodon-search-v1': {
        const type = query.get('type') ?? undefined;
        if (type !== undefined && !SEARCH_TYPES.has(type)) {
          throw new FedpodHttpError(400, 'bad_request', 'type must be accounts, statuses or hashtags');
        }
        const limit = Number.parseInt(query.get('limit') ?? '', 10);
        const offset = Number.parseInt(query.get('offset') ?? '', 10);
        const results = await this.search.search({ q: query.get('q') ?? '', type: type as SearchQuery['type'],
          resolve: query.get('resolve') === 'true', limit: limit > 0 ? Math.min(limit, 40) : 20,
          offset: offset > 0 ? Math.min(offset, 10_000) : 0 }, await readerOf(operation));
        sendJson(response, 200, { ...results, hashtags: results.hashtags.map((tag): string => tag.name) });
        return;
      }
      default:
        sendJson(response, 200, []);
    }
  }

  /**
   * The accounts the user follows that follow `id`: the local actors whose `following` holds it and,
   * for a local account, the actors of its `followers` (another server's followers of another
   * server's account are not known here).
   */
  private async familiarFollowers(username: string, id: string): Promise<MastodonAccount[]> {
    const account = await this.accounts.byId(id);
    if (!account) {
      return [];
    }
    const { urls } = this.accounts;
    const followers = new Set((await this.collections.collectionsContaining(account.uri, '/following'))
      .map((collection): string => collection.slice(0, -'/following'.length)));
    const local = urls.usernameOf(account.uri);
    if (local !== undefined) {
      for (const follower of await this.collections.all(urls.collection(local, 'followers'))) {
        followers.add(follower);
      }
    }
    const me = urls.actor(username);
    const following = urls.collection(username, 'following');
    const familiar: MastodonAccount[] = [];
    for (const follower of followers) {
      if (familiar.length >= MAX_FAMILIAR) {
        break;
      }
      if (follower !== me && follower !== account.uri && await this.collections.contains(following, follower)) {
        familiar.push(await this.accounts.accountOf(follower));
      }
    }
    return familiar;
  }
}
