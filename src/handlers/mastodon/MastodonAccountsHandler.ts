import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import { MastodonRecords } from '../../plugins/mastodon/MastodonRecords';
import type { MastodonStatuses, Reader } from '../../plugins/mastodon/MastodonStatuses';
import type { RemoteAccountPosts } from '../../plugins/mastodon/RemoteAccountPosts';
import type { MastodonStatus } from '../../plugins/mastodon/StatusEntity';
import { notFound } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';
import { linkHeader, timelineQuery } from './Pagination';

/**
 * The accounts endpoints, by the route's name: `mastodon-verify-credentials` (the token's own
 * account, with its `source`), `mastodon-account-lookup` (`?acct=user` or `user@host`, another
 * server's by WebFinger), `mastodon-account` (`:id`) and `mastodon-account-statuses` (`:id/statuses`: a local
 * user's outbox as the reader may see it, paged like timelines; another server's account's recent
 * public posts through `remotePosts`, one page of its outbox, fetched for a user only; none without it).
 */
export class MastodonAccountsHandler extends MastodonHandler {
  public constructor(
    private readonly accounts: MastodonAccounts,
    private readonly statuses: MastodonStatuses,
    private readonly remotePosts?: RemoteAccountPosts,
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
        if (!username) {
          const statuses = await this.remoteStatuses(account.uri, reader, operation.target.query);
          sendJson(response, 200, statuses, linkHeader(operation.target, statuses.map((status): string => status.id)));
          return;
        }
        if (operation.target.query.get('pinned') === 'true') {
          // Pinned statuses: the few in the featured collection (public ones only), newest pin first, on one page.
          const pinned = operation.target.query.has('max_id') ? [] :
            await this.statuses.pinned(this.accounts.urls.collection(username, 'featured'), reader);
          sendJson(response, 200, pinned);
          return;
        }
        const statuses = await this.statuses.timeline({ collections: [ this.accounts.urls.collection(username, 'outbox') ],
          addressedTo: reader.iri === account.uri ? undefined : await this.statuses.audienceFor(account.uri, reader) },
        timelineQuery(operation.target.query), reader, 'public', 'account', accountStatusKept(operation.target.query));
        sendJson(response, 200, statuses, linkHeader(operation.target, statuses.map((status): string => status.id)));
        return;
      }
      default:
        sendJson(response, 200, await this.found(operation.params.id));
    }
  }

  /**
   * Another server's account's statuses: its recent public posts (one outbox page, kept a while),
   * fetched only for a user, as a search resolves only for one; the paging parameters are honoured
   * within them (a cursor among them by its place, another by its time), `pinned` is none (nor are
   * there reblogs to exclude: only the account's own posts are read).
   */
  private async remoteStatuses(actor: string, reader: Reader, params: URLSearchParams): Promise<MastodonStatus[]> {
    if (!this.remotePosts || params.get('pinned') === 'true') {
      return [];
    }
    const recent = await this.remotePosts.recent(actor, reader, reader.username !== undefined);
    const query = timelineQuery(params);
    type Place = (status: MastodonStatus, index: number) => number;
    // Where a status is from a cursor: after it (older, > 0) or before it (newer, < 0), newest first; a
    // cursor not among them by the time its id carries. One neither among them nor carrying a time
    // places nothing and is ignored, as on timelines.
    const cursor = (name: string): Place | undefined => {
      const id = params.get(name);
      if (!id) {
        return undefined;
      }
      const at = recent.findIndex((candidate): boolean => candidate.id === id);
      if (at >= 0) {
        return (status, index): number => Math.sign(index - at);
      }
      const time = MastodonRecords.timeOf(id)?.getTime();
      return time === undefined ? undefined : (status): number => Math.sign(time - Date.parse(status.created_at));
    };
    const older = cursor('max_id');
    const newer = cursor('min_id') ?? cursor('since_id');
    const kept = accountStatusKept(params);
    const shown = recent.filter((status, index): boolean =>
      (older === undefined || older(status, index) > 0) && (newer === undefined || newer(status, index) < 0) && kept(status));
    return query.ascending ? shown.slice(-query.limit) : shown.slice(0, query.limit);
  }

  private async found(id: string | undefined): Promise<Awaited<ReturnType<MastodonAccounts['accountOf']>>> {
    const account = id ? await this.accounts.byId(id) : undefined;
    if (!account) {
      throw notFound('Record not found');
    }
    return account;
  }
}

/** A boolean parameter as Mastodon reads one (`true`, `1`). */
function flagged(params: URLSearchParams, name: string): boolean {
  return [ 'true', '1' ].includes(params.get(name) ?? '');
}

/**
 * The statuses an account's page keeps by its parameters, as Mastodon's profile tabs ask for them:
 * `exclude_replies` leaves out replies to others (a reply to oneself, a thread, stays),
 * `exclude_reblogs` the reblogs, `only_media` the statuses without media.
 */
function accountStatusKept(params: URLSearchParams): (status: MastodonStatus) => boolean {
  const noReplies = flagged(params, 'exclude_replies');
  const noReblogs = flagged(params, 'exclude_reblogs');
  const onlyMedia = flagged(params, 'only_media');
  return (status): boolean =>
    !(noReplies && status.in_reply_to_id !== null && status.in_reply_to_account_id !== status.account.id) &&
    !(noReblogs && status.reblog !== null) &&
    !(onlyMedia && status.media_attachments.length === 0);
}
