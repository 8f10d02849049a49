import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonMarkers } from '../../plugins/mastodon/MastodonMarkers';
import type { MastodonNotifications, NotificationQuery } from '../../plugins/mastodon/MastodonNotifications';
import { MastodonRecords } from '../../plugins/mastodon/MastodonRecords';
import { notFound } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';
import { linkHeader } from './Pagination';

const DEFAULT_LIMIT = 40;
const MAX_LIMIT = 80;
const MAX_UNREAD = 1000;

/** Mastodon's array parameters come as `name[]=a&name[]=b`, some apps send `name=a`. */
export function arrayParameter(query: URLSearchParams, name: string): string[] {
  return [ ...query.getAll(`${name}[]`), ...query.getAll(name) ].flatMap((value): string[] => value.split(','))
    .map((value): string => value.trim()).filter((value): boolean => value.length > 0);
}

/**
 * The notifications endpoints, by the route's name: `mastodon-notifications` (the user's list, with
 * types[], exclude_types[], account_id and Link paging both ways), `mastodon-notification` (`:id`),
 * `mastodon-notification-dismiss`, `mastodon-notifications-clear` and
 * `mastodon-notifications-unread` (how many are newer than the notifications marker).
 */
export class MastodonNotificationsHandler extends MastodonHandler {
  public constructor(
    private readonly notifications: MastodonNotifications,
    private readonly accounts: MastodonAccounts,
    private readonly markers: MastodonMarkers,
  ) {
    super();
  }

  protected async serve({ response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    const id = operation.params.id ?? '';
    switch (operation.route.name) {
      case 'mastodon-notification': {
        const notification = await this.notifications.get(username, id);
        if (!notification) {
          throw recordNotFound();
        }
        sendJson(response, 200, notification);
        return;
      }
      case 'mastodon-notification-dismiss':
        if (!await this.notifications.dismiss(username, id)) {
          throw recordNotFound();
        }
        sendJson(response, 200, {});
        return;
      case 'mastodon-notifications-clear':
        await this.notifications.clear(username);
        sendJson(response, 200, {});
        return;
      case 'mastodon-notifications-unread': {
        const marker = (await this.markers.get(operation.agent.webId!, [ 'notifications' ])).notifications;
        const limit = Number.parseInt(operation.target.query.get('limit') ?? '', 10);
        sendJson(response, 200, { count: await this.notifications.count(username, marker?.last_read_id,
          Number.isFinite(limit) && limit > 0 ? Math.min(limit, MAX_UNREAD) : 100) });
        return;
      }
      default: {
        const query = await this.queryOf(operation.target.query);
        const notifications = query ? await this.notifications.list(username, query) : [];
        sendJson(response, 200, notifications, linkHeader(operation.target, notifications.map((notification): string => notification.id)));
      }
    }
  }

  /** The page asked for; undefined when it is certainly empty (an account_id of nobody known). */
  private async queryOf(query: URLSearchParams): Promise<NotificationQuery | undefined> {
    const limit = Number.parseInt(query.get('limit') ?? '', 10);
    const cursor = (name: string): string | undefined => {
      const value = query.get(name) ?? undefined;
      return value && MastodonRecords.timeOf(value) ? value : undefined;
    };
    const minId = cursor('min_id');
    let account: string | undefined;
    const accountId = query.get('account_id');
    if (accountId) {
      account = (await this.accounts.byId(accountId))?.uri;
      if (!account) {
        return undefined;
      }
    }
    return {
      limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, MAX_LIMIT) : DEFAULT_LIMIT,
      maxId: cursor('max_id'),
      afterId: minId ?? cursor('since_id'),
      ascending: minId !== undefined,
      types: arrayParameter(query, 'types'),
      excludeTypes: arrayParameter(query, 'exclude_types'),
      account,
    };
  }
}

function recordNotFound(): Error {
  return notFound('Record not found', 'record_not_found');
}
