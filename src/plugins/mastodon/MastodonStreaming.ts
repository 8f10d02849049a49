import { getLoggerFor } from '@solid/community-server';
import { messageOf } from '../../util/Errors';
import type { ActivityEvent, ActivityEvents } from '../activitypub/ActivityEvents';
import type { Json } from '../activitypub/ActivityJson';
import { idOf, isObject, typeOf } from '../activitypub/ActivityJson';
import type { FollowedTags } from './FollowedTags';
import type { MastodonAccounts } from './MastodonAccounts';
import type { MastodonConversations } from './MastodonConversations';
import type { MastodonLists } from './MastodonLists';
import type { MastodonNotifications, NewNotification } from './MastodonNotifications';
import type { MastodonRecords } from './MastodonRecords';
import type { MastodonStatuses, Reader } from './MastodonStatuses';
import type { MastodonStatus } from './StatusEntity';

/** The streams a client may subscribe to (Mastodon's names). */
export const STREAMS = new Set([ 'user', 'user:notification', 'public', 'public:local', 'public:remote', 'hashtag',
  'hashtag:local', 'list', 'direct' ]);

/** A connected client of the streaming API. */
export interface StreamClient {
  /** The local user it is logged in as; none for an app's own token (public streams only). */
  username?: string;
  /** What it subscribed to: a stream name, or `hashtag <tag>` (lowercase) / `list <id>`. */
  subscriptions: Set<string>;
  /** Sends one event: Mastodon's `{ stream, event, payload }`. */
  send: (stream: string[], event: string, payload: string) => void;
}

export interface MastodonStreamingOptions {
  events: ActivityEvents;
  notifications: MastodonNotifications;
  statuses: MastodonStatuses;
  accounts: MastodonAccounts;
  records: MastodonRecords;
  /** The users' lists, for the `list` stream (none: it sends nothing). */
  lists?: MastodonLists;
  /** The users' direct conversations, for the `direct` stream (none: it sends nothing). */
  conversations?: MastodonConversations;
  /** Followed hashtags: their public posts to the `user` stream of who follows them, as to their home timeline. */
  followedTags?: FollowedTags;
}

const TIMELINE_TYPES = new Set([ 'Create', 'Announce' ]);
const STATUS_TYPES = new Set([ 'Note', 'Question', 'Article', 'Page', 'Event', 'Video', 'Audio', 'Image' ]);
/** How many public activities are remembered, so one delivered to several inboxes is streamed once. */
const RECENT_PUBLIC = 1000;

/**
 * The streaming API's events, from what happens on this node: an activity posted to a local outbox
 * or delivered to local inboxes (ActivityEvents) and a new notification (MastodonNotifications).
 * Each client gets only what its user may read, the status built as that user would GET it: `user`
 * has its user's own posts and reblogs, whatever reached their inbox and the public posts with
 * hashtags they follow (`update`, `status.update`, `delete`) and their notifications; public streams
 * have posts whose audience is Public and that anyone may read (`public:local` this server's,
 * `public:remote` other servers'); `hashtag` those among them with the tag; `list` the posts,
 * reblogs and deletes of a list's members that reached its owner; `direct` the `conversation` a
 * direct post to or by the user is now the last of.
 */
export class MastodonStreaming {
  protected readonly logger = getLoggerFor(this);
  private readonly options: MastodonStreamingOptions;
  private readonly clients = new Set<StreamClient>();
  private readonly recentPublic = new Set<string>();
  /** Who was sent which public activity on their `user` stream: one delivered to several inboxes is sent to each once. */
  private readonly recentToUsers = new Set<string>();

  public constructor(options: MastodonStreamingOptions) {
    this.options = options;
    options.events.listen(async(event): Promise<void> => this.activity(event));
    options.followedTags?.listen((event, recipients): void => {
      this.toTagFollowers(event, recipients).catch((error: unknown): void => {
        this.logger.warn(`Could not stream ${String(event.activity.id)} to the followers of its hashtags: ${messageOf(error)}`);
      });
    });
    options.notifications.listen((username, notification): void => {
      this.notification(username, notification).catch((error: unknown): void => {
        this.logger.warn(`Could not stream notification ${notification.id} to ${username}: ${messageOf(error)}`);
      });
    });
  }

  public add(client: StreamClient): void {
    this.clients.add(client);
  }

  public remove(client: StreamClient): void {
    this.clients.delete(client);
  }

  /** A new notification to its user's `user` and `user:notification` streams, built only when one is open. */
  private async notification(username: string, made: NewNotification): Promise<void> {
    const streams = [ 'user', 'user:notification' ];
    const clients = [ ...this.clients ].filter((client): boolean => client.username === username &&
      streams.some((stream): boolean => client.subscriptions.has(stream)));
    if (clients.length === 0) {
      return;
    }
    const notification = await made.entity();
    if (!notification) {
      return;
    }
    const payload = JSON.stringify(notification);
    for (const client of clients) {
      for (const stream of streams) {
        if (client.subscriptions.has(stream)) {
          client.send([ stream ], 'notification', payload);
        }
      }
    }
  }

  private async activity(event: ActivityEvent): Promise<void> {
    if (this.clients.size === 0) {
      return;
    }
    const { activity, box, usernames } = event;
    const type = typeOf(activity);
    if (type === 'Delete') {
      await this.deleted(activity, usernames);
    } else if (type === 'Update' && isObject(activity.object) && STATUS_TYPES.has(typeOf(activity.object) ?? '')) {
      await this.toUsers(usernames, idOf(activity.object), 'status.update');
    } else if (type && TIMELINE_TYPES.has(type)) {
      // A Create is shown as its object, a reblog as the Announce (the status has the Announce's time).
      const iri = type === 'Announce' ? idOf(activity) : idOf(activity.object);
      const at = typeof activity.published === 'string' ? new Date(activity.published) : undefined;
      await Promise.all([
        this.toUsers(usernames, iri, 'update', at),
        this.toPublic(activity, iri, box === 'outbox', at),
        this.toLists(usernames, idOf(activity.actor), async(username): Promise<MastodonStatus | undefined> =>
          iri ? this.options.statuses.shown(iri, this.readerOf(username), at) : undefined),
        type === 'Create' ? this.toDirect(usernames, iri) : undefined,
      ]);
    }
  }

  /** The status to each user's `user` stream, built as that user may see it. */
  private async toUsers(usernames: readonly string[], iri: string | undefined, event: string, at?: Date): Promise<void> {
    if (!iri) {
      return;
    }
    await Promise.all(usernames.map(async(username): Promise<void> => {
      const clients = [ ...this.clients ].filter((client): boolean => client.username === username && client.subscriptions.has('user'));
      if (clients.length === 0) {
        return;
      }
      const status = await this.options.statuses.shown(iri, this.readerOf(username), at);
      if (status) {
        const payload = JSON.stringify(status);
        for (const client of clients) {
          client.send([ 'user' ], event, payload);
        }
      }
    }));
  }

  /** A public post with hashtags, added to the feeds of those following one (FollowedTags), to their `user` stream. */
  private async toTagFollowers({ activity, usernames }: ActivityEvent, recipients: readonly string[]): Promise<void> {
    const id = idOf(activity);
    const fresh = (username: string): boolean => remember(this.recentToUsers, `${id}\n${username}`);
    // The inbox's recipients of this delivery got it as theirs; another delivery of it may name a tag's follower.
    usernames.forEach(fresh);
    const at = typeof activity.published === 'string' ? new Date(activity.published) : undefined;
    await this.toUsers(recipients.filter(fresh), idOf(activity.object), 'update', at);
  }

  /** A public post to the public and hashtag streams, once however many inboxes it reached. */
  private async toPublic(activity: Json, iri: string | undefined, local: boolean, at?: Date): Promise<void> {
    const id = idOf(activity);
    if (!iri || !id || !remember(this.recentPublic, id)) {
      return;
    }
    const streams = local ? [ 'public', 'public:local' ] : [ 'public', 'public:remote' ];
    const clients = [ ...this.clients ].filter((client): boolean => streams.some((stream): boolean => client.subscriptions.has(stream)) ||
      [ ...client.subscriptions ].some((stream): boolean => stream.startsWith('hashtag ')));
    if (clients.length === 0) {
      return;
    }
    // As anyone reads it: a post only some may read never reaches a public stream.
    const status: MastodonStatus | undefined = await this.options.statuses.shown(iri, {}, at);
    if (!status || status.visibility !== 'public') {
      return;
    }
    const payload = JSON.stringify(status);
    const tags = (status.reblog ?? status).tags.map((tag): string => tag.name.toLowerCase());
    for (const client of clients) {
      for (const stream of streams) {
        if (client.subscriptions.has(stream)) {
          client.send([ stream ], 'update', payload);
        }
      }
      for (const tag of tags) {
        if (client.subscriptions.has(`hashtag ${tag}`)) {
          client.send([ 'hashtag', tag ], 'update', payload);
        }
        if (local && client.subscriptions.has(`hashtag:local ${tag}`)) {
          client.send([ 'hashtag:local', tag ], 'update', payload);
        }
      }
    }
  }

  /** A Delete: the status's id to the users whose inbox or outbox it reached, and to the public streams. */
  private async deleted(activity: Json, usernames: readonly string[]): Promise<void> {
    const object = idOf(activity.object);
    if (!object || object === idOf(activity.actor)) {
      return;
    }
    let id: string;
    try {
      id = await this.options.records.idOf(object);
    } catch (error: unknown) {
      this.logger.warn(`No id for the deleted ${object}: ${messageOf(error)}`);
      return;
    }
    await this.toLists(usernames, idOf(activity.actor), async(): Promise<string> => id, 'delete');
    for (const client of this.clients) {
      const streams = [ ...client.subscriptions ].filter((stream): boolean => stream.startsWith('public') ||
        (stream === 'user' && client.username !== undefined && usernames.includes(client.username)));
      for (const stream of streams) {
        client.send([ stream ], 'delete', id);
      }
    }
  }

  /**
   * An event to the `list` streams of the users it reached whose list has its actor as a member;
   * `payload` builds what each user is sent (a status as they may read it; undefined sends nothing).
   */
  private async toLists(usernames: readonly string[], actor: string | undefined, payload: (username: string) =>
  Promise<MastodonStatus | string | undefined>, event = 'update'): Promise<void> {
    const { lists } = this.options;
    if (!lists || !actor) {
      return;
    }
    await Promise.all(usernames.map(async(username): Promise<void> => {
      const clients = [ ...this.clients ].filter((client): boolean => client.username === username &&
        [ ...client.subscriptions ].some((stream): boolean => stream.startsWith('list ')));
      if (clients.length === 0) {
        return;
      }
      const listIds = (await lists.listsWith(username, actor)).map((list): string => list.id);
      if (listIds.length === 0) {
        return;
      }
      const shown = await payload(username);
      if (shown === undefined) {
        return;
      }
      const text = typeof shown === 'string' ? shown : JSON.stringify(shown);
      for (const client of clients) {
        for (const listId of listIds) {
          if (client.subscriptions.has(`list ${listId}`)) {
            client.send([ 'list', listId ], event, text);
          }
        }
      }
    }));
  }

  /** The conversation a direct post is now the last status of, to the `direct` streams of the users it reached. */
  private async toDirect(usernames: readonly string[], iri: string | undefined): Promise<void> {
    const { conversations } = this.options;
    if (!conversations || !iri) {
      return;
    }
    await Promise.all(usernames.map(async(username): Promise<void> => {
      const clients = [ ...this.clients ].filter((client): boolean => client.username === username && client.subscriptions.has('direct'));
      if (clients.length === 0) {
        return;
      }
      const conversation = await conversations.withStatus(username, iri);
      if (conversation) {
        const payload = JSON.stringify(conversation);
        for (const client of clients) {
          client.send([ 'direct' ], 'conversation', payload);
        }
      }
    }));
  }

  private readerOf(username: string): Reader {
    return { iri: this.options.accounts.urls.actor(username), username };
  }
}

/** Adds the key to a bounded set of recent ones (the oldest forgotten); false when it was there already. */
function remember(recent: Set<string>, key: string): boolean {
  if (recent.has(key)) {
    return false;
  }
  recent.add(key);
  if (recent.size > RECENT_PUBLIC) {
    recent.delete(recent.values().next().value!);
  }
  return true;
}
