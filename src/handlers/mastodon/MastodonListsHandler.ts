import { recordNotFound } from '../../plugins/mastodon/MastodonRecords';
import type { Collections } from '../../storage/Collections';
import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { RepliesPolicy, StoredList } from '../../plugins/mastodon/MastodonLists';
import { MastodonLists, REPLIES_POLICIES } from '../../plugins/mastodon/MastodonLists';
import { listTimeline } from '../../plugins/mastodon/ListTimeline';
import type { MastodonStatuses } from '../../plugins/mastodon/MastodonStatuses';
import { FedpodHttpError } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { booleanField } from '../moderation/OperatorModerationHandler';
import { MastodonHandler, readerOf } from './MastodonHandler';
import type { OAuthParams } from './OAuthParams';
import { readOAuthParams, single } from './OAuthParams';
import { linkHeader, timelineQuery } from './Pagination';

const MEMBERS_LIMIT = { default: 40, max: 80 };

/** A list's fields from a request (POST or PUT): title, replies_policy, exclusive; what is absent stays as it is. */
function listFields(params: OAuthParams): Partial<Omit<StoredList, 'id' | 'members'>> {
  const policy = single(params, 'replies_policy');
  if (policy !== undefined && !(REPLIES_POLICIES as readonly string[]).includes(policy)) {
    throw new FedpodHttpError(422, 'Validation failed', `Validation failed: replies_policy is one of ${REPLIES_POLICIES.join(', ')}`);
  }
  return { title: single(params, 'title'), replies_policy: policy as RepliesPolicy | undefined, exclusive: booleanField(params, 'exclusive') };
}

/**
 * Lists, by the route's name: `mastodon-lists` (GET the user's, POST a new one), `mastodon-list`
 * (GET, PUT, DELETE of `:id`), `mastodon-list-accounts` (GET the members, POST or DELETE `account_ids[]`),
 * `mastodon-account-lists` (the user's lists an account is in) and `mastodon-list-timeline` (the
 * members' posts and reblogs that reached the user, newest first, their replies as `replies_policy`
 * says). Another user's list is 404, as an unknown one.
 */
export class MastodonListsHandler extends MastodonHandler {
  public constructor(
    private readonly lists: MastodonLists,
    private readonly accounts: MastodonAccounts,
    private readonly statuses: MastodonStatuses,
    private readonly collections: Collections,
  ) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    const id = operation.params.id ?? '';
    switch (operation.route.name) {
      case 'mastodon-lists': {
        if (request.method === 'POST') {
          const params = await readOAuthParams(request, operation.target.query);
          sendJson(response, 200, MastodonLists.entity(await this.lists.create(username, listFields(params))));
          return;
        }
        sendJson(response, 200, (await this.lists.all(username)).map((list) => MastodonLists.entity(list)));
        return;
      }
      case 'mastodon-list': {
        if (request.method === 'DELETE') {
          await this.lists.delete(username, id);
          sendJson(response, 200, {});
        } else if (request.method === 'PUT') {
          const params = await readOAuthParams(request, operation.target.query);
          sendJson(response, 200, MastodonLists.entity(await this.lists.update(username, id, listFields(params))));
        } else {
          sendJson(response, 200, MastodonLists.entity(await this.lists.get(username, id)));
        }
        return;
      }
      case 'mastodon-list-accounts':
        await this.members({ request, response, operation }, username, id);
        return;
      case 'mastodon-account-lists': {
        const account = await this.accountById(id);
        sendJson(response, 200, (await this.lists.listsWith(username, account.uri)).map((list) => MastodonLists.entity(list)));
        return;
      }
      default: {
        const list = await this.lists.get(username, id);
        const reader = { ...await readerOf(operation), username };
        const { read, shown } = await listTimeline({ accounts: this.accounts, statuses: this.statuses, collections: this.collections }, list,
          timelineQuery(operation.target.query), reader);
        sendJson(response, 200, shown, linkHeader(operation.target, read.map((status): string => status.id)));
      }
    }
  }

  private async members({ request, response, operation }: OperationInput, username: string, id: string): Promise<void> {
    if (request.method === 'GET' || request.method === 'HEAD') {
      const list = await this.lists.get(username, id);
      const requested = Number.parseInt(operation.target.query.get('limit') ?? '', 10);
      // Mastodon: limit 0 is every member at once.
      const limit = requested === 0 ? list.members.length : Number.isFinite(requested) && requested > 0 ?
        Math.min(requested, MEMBERS_LIMIT.max) : MEMBERS_LIMIT.default;
      const accounts = await Promise.all(list.members.map(async(actor): Promise<MastodonAccount> => this.accounts.accountOf(actor)));
      const maxId = operation.target.query.get('max_id');
      const start = maxId ? accounts.findIndex((account): boolean => account.id === maxId) + 1 : 0;
      const page = accounts.slice(start, start + limit);
      sendJson(response, 200, page, page.length === limit && start + limit < accounts.length ?
        linkHeader(operation.target, page.map((account): string => account.id)) :
        {});
      return;
    }
    const params = await readOAuthParams(request, operation.target.query);
    const raw = params.account_ids;
    const ids = raw === undefined ? [] : Array.isArray(raw) ? raw : [ raw ];
    if (ids.length === 0) {
      throw new FedpodHttpError(422, 'Validation failed', 'Validation failed: give account_ids[]');
    }
    await this.lists.get(username, id);
    const actors = await Promise.all(ids.map(async(accountId): Promise<string> => (await this.accountById(accountId)).uri));
    if (request.method === 'DELETE') {
      await this.lists.removeMembers(username, id, actors);
    } else {
      if (actors.includes(this.accounts.urls.actor(username))) {
        throw new FedpodHttpError(422, 'Validation failed', 'Validation failed: you cannot add yourself to a list');
      }
      await this.lists.addMembers(username, id, actors);
    }
    sendJson(response, 200, {});
  }

  private async accountById(id: string): Promise<MastodonAccount> {
    const account = await this.accounts.byId(id);
    if (!account) {
      throw recordNotFound();
    }
    return account;
  }
}
