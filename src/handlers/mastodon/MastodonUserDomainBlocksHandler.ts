import type { UserDomainBlocking } from '../../plugins/lifecycle/UserDomainBlocking';
import { FedpodHttpError } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';
import { readOAuthParams, single } from './OAuthParams';
import { linkHeader } from './Pagination';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 200;

/**
 * A user's own domain blocks, as Mastodon's `/api/v1/domain_blocks`: GET the blocked domains (strings,
 * newest first; `limit` 100, at most 200, `max_id`, `since_id`/`min_id`, a Link header), POST `domain`
 * to block one, DELETE `domain` to lift it (both `{}`).
 */
export class MastodonUserDomainBlocksHandler extends MastodonHandler {
  public constructor(private readonly blocking: UserDomainBlocking) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    if (request.method === 'GET' || request.method === 'HEAD') {
      request.resume();
      const query = operation.target.query;
      const number = (name: string): number | undefined => {
        const value = Number.parseInt(query.get(name) ?? '', 10);
        return Number.isFinite(value) ? value : undefined;
      };
      const limit = Math.min(number('limit') ?? DEFAULT_LIMIT, MAX_LIMIT);
      const before = number('max_id');
      const after = number('min_id') ?? number('since_id');
      const page = (await this.blocking.list(username))
        .filter((block): boolean => (before === undefined || block.id < before) && (after === undefined || block.id > after))
        .slice(0, limit > 0 ? limit : DEFAULT_LIMIT);
      sendJson(response, 200, page.map((block): string => block.domain),
        linkHeader(operation.target, page.map((block): string => String(block.id))));
      return;
    }
    const params = await readOAuthParams(request, operation.target.query);
    const domain = single(params, 'domain');
    if (!domain) {
      throw new FedpodHttpError(422, 'Validation failed', 'Name the domain: domain.');
    }
    if (request.method === 'DELETE') {
      await this.blocking.unblock(username, domain);
    } else {
      await this.blocking.block(username, domain);
    }
    sendJson(response, 200, {});
  }
}
