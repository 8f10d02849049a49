import type { Collections } from '../../storage/Collections';
import { FedpodHttpError, notFound } from '../../util/HttpErrors';
import { addressingOf, idOf } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import { AS_NS } from '../activitypub/ActivityVocabulary';
import { blockedCollection } from '../activitypub/outbound/BlockSentEffect';
import type { OutboxService } from '../activitypub/outbound/OutboxService';
import type { MastodonAccount } from './AccountEntity';
import type { MastodonAccounts } from './MastodonAccounts';
import type { MastodonRecords } from './MastodonRecords';

export interface MastodonFollowsOptions {
  accounts: MastodonAccounts;
  collections: Collections;
  records: MastodonRecords;
  activities: ActivityRepository;
  outbox: OutboxService;
}

/** Mastodon's Relationship entity: how the user stands with an account. */
export interface MastodonRelationship {
  id: string;
  following: boolean;
  showing_reblogs: boolean;
  notifying: boolean;
  languages: null;
  followed_by: boolean;
  blocking: boolean;
  blocked_by: boolean;
  muting: boolean;
  muting_notifications: boolean;
  requested: boolean;
  requested_by: boolean;
  domain_blocking: boolean;
  endorsed: boolean;
  note: string;
}

/** A page of an account list: `max_id` older than (after), `min_id` newer than (before) an account id. */
export interface AccountPage {
  limit: number;
  maxId?: string;
  minId?: string;
}

/**
 * Following, followers, follow requests and blocks for the Mastodon API over the actors' collections,
 * written through the outbox as the user's own Follow, Undo, Accept, Reject and Block activities, so
 * they are stored, served and delivered as any other. Follow requests are the Follows waiting in the
 * inbox of a user who approves followers (`manuallyApprovesFollowers`).
 */
export class MastodonFollows {
  private readonly options: MastodonFollowsOptions;

  public constructor(options: MastodonFollowsOptions) {
    this.options = options;
  }

  /** How `username` stands with the account of `actor`. */
  public async relationship(username: string, actor: string): Promise<MastodonRelationship> {
    const { accounts, collections } = this.options;
    const me = accounts.urls.actor(username);
    const [ id, following, followedBy, blocking, blockedBy, ownFollows, requestedBy ] = await Promise.all([
      accounts.idOf(actor),
      collections.contains(accounts.urls.collection(username, 'following'), actor),
      collections.contains(accounts.urls.collection(username, 'followers'), actor),
      collections.contains(blockedCollection(me), actor),
      accounts.urls.usernameOf(actor) === undefined ? false : collections.contains(blockedCollection(actor), me),
      this.own(username, 'Follow', actor),
      this.pendingFollowFrom(username, actor),
    ]);
    return { id, following, showing_reblogs: following, notifying: false, languages: null, followed_by: followedBy,
      blocking, blocked_by: blockedBy, muting: false, muting_notifications: false,
      requested: !following && ownFollows.length > 0, requested_by: requestedBy !== undefined, domain_blocking: false,
      endorsed: false, note: '' };
  }

  /** Follows the account (a Follow through the outbox), unless already following or asked. */
  public async follow(username: string, id: string): Promise<MastodonRelationship> {
    const actor = await this.actorOf(id);
    if (actor === this.options.accounts.urls.actor(username)) {
      throw new FedpodHttpError(422, 'unprocessable_entity', 'Validation failed: You cannot follow yourself');
    }
    const now = await this.relationship(username, actor);
    if (now.blocking) {
      throw new FedpodHttpError(422, 'unprocessable_entity', 'Validation failed: You are blocking this account');
    }
    if (!now.following && !now.requested) {
      await this.options.outbox.post(username, { type: 'Follow', object: actor, to: [ actor ] });
    }
    return this.relationship(username, actor);
  }

  /** Unfollows or unblocks: an Undo of each of the user's Follows or Blocks of the account. */
  public async undo(username: string, id: string, type: 'Follow' | 'Block'): Promise<MastodonRelationship> {
    const actor = await this.actorOf(id);
    await this.undoAll(username, type, actor);
    return this.relationship(username, actor);
  }

  /** Blocks the account (a Block through the outbox: it stops following and being followed). */
  public async block(username: string, id: string): Promise<MastodonRelationship> {
    const actor = await this.actorOf(id);
    if (actor === this.options.accounts.urls.actor(username)) {
      throw new FedpodHttpError(422, 'unprocessable_entity', 'Validation failed: You cannot block yourself');
    }
    if (!(await this.relationship(username, actor)).blocking) {
      // Pending follows of the account are taken back too, as Mastodon does.
      await this.undoAll(username, 'Follow', actor);
      await this.options.outbox.post(username, { type: 'Block', object: actor, to: [ actor ] });
    }
    return this.relationship(username, actor);
  }

  /** The accounts that follow (`followers`) or are followed by (`following`) a local account, newest first; remote ones: none known. */
  public async list(id: string, which: 'followers' | 'following', page: AccountPage): Promise<MastodonAccount[]> {
    const { accounts, collections } = this.options;
    const account = await accounts.byId(id);
    const username = account ? accounts.urls.usernameOf(account.uri) : undefined;
    if (!account) {
      throw notFound('Record not found');
    }
    const actors = username ? (await collections.all(accounts.urls.collection(username, which))).reverse() : [];
    return this.page(actors, page);
  }

  /** The accounts whose Follows wait for the user's answer, oldest first. */
  public async requests(username: string, page: AccountPage): Promise<MastodonAccount[]> {
    const pending: string[] = [];
    for (const follow of await this.follows(username)) {
      const sender = await this.pendingSender(username, follow);
      if (sender && !pending.includes(sender)) {
        pending.push(sender);
      }
    }
    return this.page(pending, page);
  }

  /** Accepts (an Accept through the outbox: the account joins the followers) or rejects the account's Follow. */
  public async answer(username: string, id: string, type: 'Accept' | 'Reject'): Promise<MastodonRelationship> {
    const actor = await this.actorOf(id);
    const follow = await this.pendingFollowFrom(username, actor);
    if (!follow) {
      throw notFound('Record not found');
    }
    await this.options.outbox.post(username, { type, object: follow, to: [ actor ] });
    return this.relationship(username, actor);
  }

  private async page(actors: string[], { limit, maxId, minId }: AccountPage): Promise<MastodonAccount[]> {
    const { accounts } = this.options;
    const ids = await Promise.all(actors.map(async(actor): Promise<string> => accounts.idOf(actor)));
    let start = 0;
    let end = actors.length;
    if (maxId !== undefined && ids.includes(maxId)) {
      start = ids.indexOf(maxId) + 1;
    } else if (minId !== undefined && ids.includes(minId)) {
      end = ids.indexOf(minId);
      start = Math.max(0, end - limit);
    }
    const memo = new Map<string, Promise<MastodonAccount>>();
    return Promise.all(actors.slice(start, Math.min(end, start + limit)).map(async(actor): Promise<MastodonAccount> =>
      accounts.accountOf(actor, memo)));
  }

  /** The actor IRI of an account id; 404 when there is none. */
  public async actorOf(id: string): Promise<string> {
    const account = await this.options.accounts.byId(id);
    if (!account) {
      throw notFound('Record not found');
    }
    return account.uri;
  }

  /** The user's own activities of a type on an object, in the outbox. */
  private async own(username: string, type: string, object: string): Promise<string[]> {
    const urls = this.options.accounts.urls;
    return this.options.records.activitiesOn(urls.collection(username, 'outbox'), urls.actor(username), `${AS_NS}${type}`, object);
  }

  /** Undoes each of the user's activities of a type on the actor, and takes them out of the outbox (as an LDP DELETE would). */
  private async undoAll(username: string, type: 'Follow' | 'Block', actor: string): Promise<void> {
    const outbox = this.options.accounts.urls.collection(username, 'outbox');
    for (const activity of await this.own(username, type, actor)) {
      const stored = await this.options.activities.read(activity);
      await this.options.outbox.post(username, { type: 'Undo', object: activity, ...stored ? addressingOf(stored) : {} });
      await this.options.collections.remove(outbox, activity);
    }
  }

  /** The Follows of the user in their inbox (by one sender, when given). */
  private async follows(username: string, sender?: string): Promise<string[]> {
    const urls = this.options.accounts.urls;
    return this.options.records.activitiesOn(urls.collection(username, 'inbox'), sender, `${AS_NS}Follow`, urls.actor(username));
  }

  /** The sender of a Follow the user has not answered and whose sender does not follow them, if so. */
  private async pendingSender(username: string, follow: string): Promise<string | undefined> {
    const stored = await this.options.activities.read(follow);
    const sender = stored ? idOf(stored.actor) : undefined;
    if (!sender || await this.options.collections.contains(this.options.accounts.urls.collection(username, 'followers'), sender)) {
      return undefined;
    }
    const [ accepted, rejected ] = await Promise.all([ this.own(username, 'Accept', follow), this.own(username, 'Reject', follow) ]);
    return accepted.length === 0 && rejected.length === 0 ? sender : undefined;
  }

  private async pendingFollowFrom(username: string, actor: string): Promise<string | undefined> {
    for (const follow of await this.follows(username, actor)) {
      if (await this.pendingSender(username, follow) === actor) {
        return follow;
      }
    }
    return undefined;
  }
}
