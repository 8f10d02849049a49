import type { FollowedTags } from '../../plugins/mastodon/FollowedTags';
import { discardBody, sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';
import { linkHeader, timelineQuery } from './Pagination';

/**
 * Hashtags, by the route's name: `mastodon-tag` (`GET /api/v1/tags/:name`, anyone; `following` for a
 * user), `mastodon-tag-follow` and `mastodon-tag-unfollow` (`POST .../follow`, `.../unfollow`: the
 * Tag with `following`) and `mastodon-followed-tags` (`GET /api/v1/followed_tags`, the latest
 * followed first, paged with a Link header). A name that cannot be a hashtag is 404, as on Mastodon.
 */
export class MastodonTagsHandler extends MastodonHandler {
  public constructor(private readonly tags: FollowedTags) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    discardBody(request);
    const name = operation.params.name ?? '';
    switch (operation.route.name) {
      case 'mastodon-tag-follow':
        sendJson(response, 200, await this.tags.follow(operation.agent.username!, name));
        return;
      case 'mastodon-tag-unfollow':
        sendJson(response, 200, await this.tags.unfollow(operation.agent.username!, name));
        return;
      case 'mastodon-followed-tags': {
        const query = timelineQuery(operation.target.query);
        const username = operation.agent.username!;
        const follows = await this.tags.list(username, query);
        const entities = await Promise.all(follows.map(async(follow) => ({ ...await this.tags.entity(follow.name), following: true })));
        sendJson(response, 200, entities, linkHeader(operation.target, follows.map((follow): string => follow.followId)));
        return;
      }
      default:
        sendJson(response, 200, await this.tags.entity(name, (await readerOf(operation)).username));
    }
  }
}
