import type { MastodonConversations } from '../../plugins/mastodon/MastodonConversations';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';
import { linkHeader, timelineQuery } from './Pagination';

/**
 * Direct conversations, by the route's name: `mastodon-conversations` (GET, the most recently
 * active first, paged by their last status's id with a Link header), `mastodon-conversation`
 * (DELETE: removed until its next post) and `mastodon-conversation-read` (POST `:id/read`). A
 * conversation the user is not part of is 404, as an unknown one.
 */
export class MastodonConversationsHandler extends MastodonHandler {
  public constructor(private readonly conversations: MastodonConversations) {
    super();
  }

  protected async serve({ response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    const id = operation.params.id ?? '';
    switch (operation.route.name) {
      case 'mastodon-conversation':
        await this.conversations.remove(username, id);
        sendJson(response, 200, {});
        return;
      case 'mastodon-conversation-read':
        sendJson(response, 200, await this.conversations.markRead(username, id));
        return;
      default: {
        const page = await this.conversations.list(username, timelineQuery(operation.target.query));
        sendJson(response, 200, page, linkHeader(operation.target, page.map((conversation): string => conversation.last_status.id)));
      }
    }
  }
}
