import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonStatuses } from '../../plugins/mastodon/MastodonStatuses';
import { notFound } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';
import { linkHeader, timelineQuery } from './Pagination';

/**
 * The accounts endpoints, by the route's name: `mastodon-verify-credentials` (the token's own
 * account, with its `source`), `mastodon-account-lookup` (`?acct=user` or `user@host`, another
 * server's by WebFinger), `mastodon-account` (`:id`) and `mastodon-account-statuses` (`:id/statuses`: a local
 * user's outbox as the reader may see it, paged like timelines; none yet for remote accounts).
 */
export class MastodonAccountsHandler extends MastodonHandler {
  public constructor(
    private readonly accounts: MastodonAccounts,
    private readonly statuses: MastodonStatuses,
  ) {
    super();
  }

  protected async serve({ response, operation }: OperationInput): Promise<void> {
    switch (operation.route.name) {
      case 'mastodon-verify-credentials': {
        const username = operation.agent.username!;
        const account = await this.accounts.accountOf(this.accounts.urls.actor(username));
        sendJson(response, 200, { ...account, source: { privacy: 'public', sensitive: false, language: null,
          note: account.note, fields: account.fields, follow_requests_count: 0 }});
        return;
      }
      case 'mastodon-account-lookup': {
        const account = await this.accounts.lookup(operation.target.query.get('acct') ?? '');
        if (!account) {
          throw notFound('Record not found');
        }
        sendJson(response, 200, account);
        return;
      }
      case 'mastodon-account-statuses': {
        const account = await this.found(operation.params.id);
        const username = this.accounts.urls.usernameOf(account.uri);
        const reader = await readerOf(operation);
        const query = timelineQuery(operation.target.query);
        const outbox = username ? this.accounts.urls.collection(username, 'outbox') : undefined;
        if (username && operation.target.query.get('pinned') === 'true') {
          // Pinned statuses: the few in the featured collection (public ones only), newest pin first, on one page.
          const pinned = operation.target.query.has('max_id') ? [] :
            await this.statuses.pinned(this.accounts.urls.collection(username, 'featured'), reader);
          sendJson(response, 200, pinned);
          return;
        }
        const statuses = outbox ?
          await this.statuses.timeline({ collections: [ outbox ],
            addressedTo: reader.iri === account.uri ? undefined : await this.statuses.audienceFor(account.uri, reader) },
          query, reader, 'public', 'account') :
          [];
        sendJson(response, 200, statuses, linkHeader(operation.target, statuses.map((status): string => status.id)));
        return;
      }
      default:
        sendJson(response, 200, await this.found(operation.params.id));
    }
  }

  private async found(id: string | undefined): Promise<Awaited<ReturnType<MastodonAccounts['accountOf']>>> {
    const account = id ? await this.accounts.byId(id) : undefined;
    if (!account) {
      throw notFound('Record not found');
    }
    return account;
  }
}
