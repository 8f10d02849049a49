import { homeCollections, type FollowedTags } from '../../plugins/mastodon/FollowedTags';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonStatuses } from '../../plugins/mastodon/MastodonStatuses';
import type { TimelineSource } from '../../plugins/mastodon/MastodonRecords';
import { AS_PUBLIC } from '../../plugins/activitypub/ActivityVocabulary';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';
import { linkHeader, timelineQuery } from './Pagination';

/**
 * The timelines, by the route's name: `mastodon-home` (the user's inbox and outbox: their posts and
 * reblogs, and what reached them; and the public posts with hashtags they follow) and `mastodon-public` (posts addressed to Public in this server's
 * outboxes; with `local=false` or none also the public posts that reached its inboxes). Newest
 * first, paged with max_id / since_id / min_id and a Link header.
 */
export class MastodonTimelinesHandler extends MastodonHandler {
  public constructor(
    private readonly accounts: MastodonAccounts,
    private readonly statuses: MastodonStatuses,
    private readonly followedTags?: FollowedTags,
  ) {
    super();
  }

  protected async serve({ response, operation }: OperationInput): Promise<void> {
    const reader = await readerOf(operation);
    let source: TimelineSource;
    const home = operation.route.name === 'mastodon-home';
    if (home) {
      source = { collections: homeCollections(this.accounts.urls, reader.username!, this.followedTags) };
    } else {
      const local = [ 'true', '1' ].includes(operation.target.query.get('local') ?? '');
      source = { everyActorCollection: local ? [ '/outbox' ] : [ '/outbox', '/inbox' ], addressedTo: [ AS_PUBLIC ], inToOnly: true };
    }
    const statuses = await this.statuses.timeline(source, timelineQuery(operation.target.query), reader, home ? 'home' : 'public');
    sendJson(response, 200, statuses, linkHeader(operation.target, statuses.map((status): string => status.id)));
  }
}
