import type { Collections } from '../../storage/Collections';
import type { MastodonAccounts } from './MastodonAccounts';
import type { StoredList } from './MastodonLists';
import type { TimelineQuery } from './MastodonRecords';
import type { MastodonStatuses, Reader } from './MastodonStatuses';
import type { MastodonStatus } from './StatusEntity';

/** What a list's timeline is read with. */
export interface ListTimelineServices {
  accounts: MastodonAccounts;
  statuses: MastodonStatuses;
  collections: Collections;
}

/**
 * A page of a list's timeline (`GET /api/v1/timelines/list/:id`, and the app's list page): the
 * members' posts and reblogs that reached the list's owner (the reader), newest first, their replies
 * as `replies_policy` says. Also the statuses before the policy: their ids page the timeline.
 */
export async function listTimeline(services: ListTimelineServices, list: StoredList, query: TimelineQuery, reader: Reader & { username: string }):
Promise<{ read: MastodonStatus[]; shown: MastodonStatus[] }> {
  const { urls } = services.accounts;
  const read = await services.statuses.timeline({
    collections: [ urls.collection(reader.username, 'inbox'), urls.collection(reader.username, 'outbox') ],
    actors: list.members,
  }, query, reader, 'list');
  return { read, shown: await byRepliesPolicy(services, read, list, reader.username) };
}

/**
 * The replies the list's policy shows: `none` none but the members' own threads, `list` those to
 * the list's members or the user, `followed` those to anyone the user follows (or the user).
 */
async function byRepliesPolicy({ accounts, collections }: ListTimelineServices, statuses: MastodonStatus[], list: StoredList, own: string):
Promise<MastodonStatus[]> {
  const memberIds = new Set(await Promise.all(list.members.map(async(actor): Promise<string> => accounts.idOf(actor))));
  const following = accounts.urls.collection(own, 'following');
  const shown = await Promise.all(statuses.map(async(status): Promise<boolean> => {
    const repliedTo = status.reblog ? null : status.in_reply_to_account_id;
    if (repliedTo === null || repliedTo === status.account.id || repliedTo === own) {
      return true;
    }
    if (list.replies_policy === 'none') {
      return false;
    }
    if (memberIds.has(repliedTo)) {
      return true;
    }
    if (list.replies_policy === 'list') {
      return false;
    }
    const account = await accounts.byId(repliedTo);
    return account !== undefined && collections.contains(following, account.uri);
  }));
  return statuses.filter((status, index): boolean => shown[index]);
}
