import type { MastodonFollows, AccountPage } from '../../plugins/mastodon/MastodonFollows';
import type { MastodonSearch, SearchQuery } from '../../plugins/mastodon/MastodonSearch';
import { FedpodHttpError } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';
import { linkHeader } from './Pagination';

const SEARCH_TYPES = new Set([ 'accounts', 'statuses', 'hashtags' ]);

/**
 * Finding and following people, by the route's name: `mastodon-search` (v2 search),
 * `mastodon-relationships` (`?id[]=`), `mastodon-follow-action` (`:id/follow`, `unfollow`, `block`,
 * `unblock`), `mastodon-follow-lists` (`:id/followers`, `:id/following`, paged by account id with
 * `Link`), `mastodon-follow-requests` (the list) and `mastodon-follow-request-action` (`:id/authorize`,
 * `reject`).
 */
export class MastodonHandlesHandler extends MastodonHandler {
  public constructor(
    private readonly follows: MastodonFollows,
    private readonly search: MastodonSearch,
  ) {
    super();
  }

  protected async serve({ response, operation }: OperationInput): Promise<void> {
    const query = operation.target.query;
    const username = operation.agent.username;
    const action = operation.target.path.split('/').at(-1);
    const id = operation.params.id ?? '';
    switch (operation.route.name) {
      case 'mastodon-search': {
        const type = query.get('type') ?? undefined;
        if (type !== undefined && !SEARCH_TYPES.has(type)) {
          throw new FedpodHttpError(400, 'bad_request', 'type must be accounts, statuses or hashtags');
        }
        const results = await this.search.search({ q: query.get('q') ?? '', type: type as SearchQuery['type'],
          resolve: query.get('resolve') === 'true', limit: bounded(query.get('limit'), 20, 40),
          offset: bounded(query.get('offset'), 0, 10_000) }, await readerOf(operation));
        sendJson(response, 200, results);
        return;
      }
      case 'mastodon-relationships': {
        const ids = [ ...query.getAll('id[]'), ...query.getAll('id') ].slice(0, 40);
        const found = [];
        for (const id of ids) {
          // Mastodon leaves unknown ids out.
          const actor = await this.follows.actorOf(id).catch((error: unknown): undefined => {
            if (FedpodHttpError.isInstance(error) && error.statusCode === 404) {
              return undefined;
            }
            throw error;
          });
          if (actor) {
            found.push(await this.follows.relationship(username!, actor));
          }
        }
        sendJson(response, 200, found);
        return;
      }
      case 'mastodon-follow-action': {
        const result = action === 'follow' ? await this.follows.follow(username!, id) :
          action === 'block' ? await this.follows.block(username!, id) :
            await this.follows.undo(username!, id, action === 'unfollow' ? 'Follow' : 'Block');
        sendJson(response, 200, result);
        return;
      }
      case 'mastodon-follow-lists':
      case 'mastodon-follow-requests': {
        const accounts = operation.route.name === 'mastodon-follow-requests' ?
          await this.follows.requests(username!, pageOf(query, 40, 80)) :
          await this.follows.list(id, action === 'followers' ? 'followers' : 'following', pageOf(query, 40, 80));
        sendJson(response, 200, accounts, linkHeader(operation.target, accounts.map((account): string => account.id)));
        return;
      }
      default:
        sendJson(response, 200, await this.follows.answer(username!, id, action === 'authorize' ? 'Accept' : 'Reject'));
    }
  }
}

function bounded(value: string | null, fallback: number, max: number): number {
  const number = Number.parseInt(value ?? '', 10);
  return Number.isFinite(number) && number >= 0 ? Math.min(number, max) : fallback;
}

function pageOf(query: URLSearchParams, fallback: number, max: number): AccountPage {
  const limit = bounded(query.get('limit'), fallback, max) || fallback;
  return { limit, maxId: query.get('max_id') ?? undefined, minId: query.get('min_id') ?? query.get('since_id') ?? undefined };
}
