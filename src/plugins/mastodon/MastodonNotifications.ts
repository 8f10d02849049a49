import { DataFactory } from 'n3';
import { v7 as uuidv7 } from 'uuid';
import type { Collections } from '../../storage/Collections';
import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri, sparqlLiteral } from '../../storage/SparqlTerms';
import { FEDPOD_NS } from '../../storage/StoreVocabulary';
import type { ActivityEvent, ActivityEvents } from '../activitypub/ActivityEvents';
import type { Json } from '../activitypub/ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../activitypub/ActivityJson';
import type { ActivityRepository } from '../activitypub/ActivityRepository';
import type { ActorProfiles } from '../activitypub/ActorProfiles';
import { AS_NS } from '../activitypub/ActivityVocabulary';
import type { MastodonAccount } from './AccountEntity';
import type { MastodonAccounts } from './MastodonAccounts';
import { MastodonRecords } from './MastodonRecords';
import type { MastodonStatuses, Reader } from './MastodonStatuses';
import type { MastodonStatus } from './StatusEntity';
import type { AccountDataRemover } from '../accounts/AccountDataRemover';

const { literal } = DataFactory;

/** The kinds of notification recorded (Mastodon's `status` and `poll` are not: see docs/mastodon-api.md). */
export const NOTIFICATION_TYPES = [ 'mention', 'reblog', 'follow', 'follow_request', 'favourite', 'update' ] as const;
export type NotificationType = typeof NOTIFICATION_TYPES[number];

/** Mastodon's Notification entity. */
export interface MastodonNotification {
  id: string;
  type: NotificationType;
  created_at: string;
  account: MastodonAccount;
  status?: MastodonStatus;
}

/** Which notifications a page lists (Mastodon's query parameters, ids already resolved). */
export interface NotificationQuery {
  limit: number;
  /** Older than this id. */
  maxId?: string;
  /** Newer than this id: the newest ones (since_id), or those right after it (min_id, `ascending`). */
  afterId?: string;
  ascending?: boolean;
  types?: string[];
  excludeTypes?: string[];
  /** Only those caused by this actor. */
  account?: string;
}

/**
 * A notification just recorded: what it is, and its entity built on the first ask only (a listener
 * with nobody to tell builds nothing; several share one build).
 */
export interface NewNotification {
  id: string;
  type: NotificationType;
  /** Who caused it. */
  actor: string;
  /** Whether it was kept: false when the activity had made one for this user already (asked once). */
  kept: () => Promise<boolean>;
  /** The entity as its user reads it now; undefined when not kept or not shown (hidden by moderation or a filter). */
  entity: () => Promise<MastodonNotification | undefined>;
}

export type NotificationListener = (username: string, notification: NewNotification) => void;

export interface MastodonNotificationsOptions {
  client: SparqlClient;
  events: ActivityEvents;
  activities: ActivityRepository;
  collections: Collections;
  profiles: ActorProfiles;
  records: MastodonRecords;
  accounts: MastodonAccounts;
  statuses: MastodonStatuses;
  /** What moderation hides (none: nothing). */
  filter?: NotificationFilter;
}

/** Hides notifications by who caused them; implemented by the moderation plugin. */
export interface NotificationFilter {
  /** Whether `username` is not shown what `actor` did (a suspended account or domain, a mute with its notifications). */
  hidesNotificationsFrom: (actor: string, username?: string) => Promise<boolean>;
}

interface Recorded {
  type: NotificationType;
  actor: string;
  status?: string;
  /**
   * The status is another server's object of an activity now in the user's inbox: theirs to read by
   * that alone (AudienceRules.mayReadReceived), so not read again to check.
   */
  inInbox?: boolean;
}

const P = {
  type: `${FEDPOD_NS}notificationType`,
  activity: `${FEDPOD_NS}notificationActivity`,
  account: `${FEDPOD_NS}notificationAccount`,
  status: `${FEDPOD_NS}notificationStatus`,
};
const SUBJECT_PREFIX = 'urn:fedpod:mastodon:notification:';

/**
 * Mastodon's notifications of each local user, recorded as activities reach their inbox (from
 * other servers and from local users alike: ActivityEvents), never on the inbox's own path. Kept in
 * the store, one graph per user (`urn:fedpod:mastodon:notifications:<actor>`), so they survive
 * restarts, every node reads the same, and a page is one query over that user's graph alone. Each
 * is named by a UUIDv7 minted when it was recorded, so ids sort by time; one activity makes at most
 * one notification per user however often it is delivered. A notification is recorded, and later
 * shown, only when its user may read its status (as an ActivityPub GET of it would answer).
 */
export class MastodonNotifications implements AccountDataRemover {
  private readonly options: MastodonNotificationsOptions;
  private readonly listeners: NotificationListener[] = [];

  public constructor(options: MastodonNotificationsOptions) {
    this.options = options;
    options.events.listen(async(event): Promise<void> => this.received(event));
  }

  /** Called with each new notification (the streaming API's `notification` events). */
  public listen(listener: NotificationListener): void {
    this.listeners.push(listener);
  }

  /** A page of the user's notifications, newest first (with the ids that placed it, for paging). */
  public async list(username: string, query: NotificationQuery): Promise<MastodonNotification[]> {
    const filters: string[] = [];
    const subject = (id: string): string => sparqlLiteral(literal(`${SUBJECT_PREFIX}${id}`));
    if (query.maxId) {
      filters.push(`STR(?n) < ${subject(query.maxId)}`);
    }
    if (query.afterId) {
      filters.push(`STR(?n) > ${subject(query.afterId)}`);
    }
    if (query.types && query.types.length > 0) {
      filters.push(`?type IN (${query.types.map((type): string => sparqlLiteral(literal(type))).join(', ')})`);
    }
    if (query.excludeTypes && query.excludeTypes.length > 0) {
      filters.push(`?type NOT IN (${query.excludeTypes.map((type): string => sparqlLiteral(literal(type))).join(', ')})`);
    }
    if (query.account) {
      filters.push(`?account = ${sparqlIri(query.account)}`);
    }
    const direction = query.ascending ? 'ASC' : 'DESC';
    const rows = await this.options.client.select(`SELECT ?n ?type ?account ?status WHERE { GRAPH ${this.graphOf(username)} {
  ?n ${sparqlIri(P.type)} ?type ; ${sparqlIri(P.account)} ?account . OPTIONAL { ?n ${sparqlIri(P.status)} ?status }
  ${filters.length > 0 ? `FILTER(${filters.join(' && ')})` : ''} } } ORDER BY ${direction}(STR(?n)) LIMIT ${query.limit}`);
    const reader = this.readerOf(username);
    const memo = new Map<string, Promise<MastodonAccount>>();
    const shown = await Promise.all(rows.map(async(row): Promise<MastodonNotification | undefined> => this.entity(
      row.n.value.slice(SUBJECT_PREFIX.length), row.type.value as NotificationType, row.account.value, row.status?.value, reader, memo)));
    const notifications = shown.filter((notification): notification is MastodonNotification => notification !== undefined);
    return query.ascending ? notifications.reverse() : notifications;
  }

  /** One notification of the user, if it is theirs and its status is still theirs to read. */
  public async get(username: string, id: string): Promise<MastodonNotification | undefined> {
    if (MastodonRecords.timeOf(id) === undefined) {
      return undefined;
    }
    const rows = await this.options.client.select(`SELECT ?type ?account ?status WHERE { GRAPH ${this.graphOf(username)} {
  ${sparqlIri(`${SUBJECT_PREFIX}${id}`)} ${sparqlIri(P.type)} ?type ; ${sparqlIri(P.account)} ?account .
  OPTIONAL { ${sparqlIri(`${SUBJECT_PREFIX}${id}`)} ${sparqlIri(P.status)} ?status } } } LIMIT 1`);
    if (rows.length === 0) {
      return undefined;
    }
    return this.entity(id, rows[0].type.value as NotificationType, rows[0].account.value, rows[0].status?.value,
      this.readerOf(username), new Map());
  }

  /** Removes one of the user's notifications; false when they have none of that id. */
  public async dismiss(username: string, id: string): Promise<boolean> {
    if (MastodonRecords.timeOf(id) === undefined) {
      return false;
    }
    const graph = this.graphOf(username);
    const subject = sparqlIri(`${SUBJECT_PREFIX}${id}`);
    if (!await this.options.client.ask(`ASK { GRAPH ${graph} { ${subject} ${sparqlIri(P.type)} ?type } }`)) {
      return false;
    }
    await this.options.client.update(`DELETE WHERE { GRAPH ${graph} { ${subject} ?p ?o } }`);
    return true;
  }

  /** Removes all of the user's notifications. */
  public async clear(username: string): Promise<void> {
    await this.options.client.update(`DELETE WHERE { GRAPH ${this.graphOf(username)} { ?s ?p ?o } }`);
  }

  /** A deleted account's notifications. */
  public async removeAccountData(username: string): Promise<void> {
    await this.clear(username);
  }

  /** How many of the user's notifications are newer than `afterId` (all when none), at most `limit`. */
  public async count(username: string, afterId: string | undefined, limit: number): Promise<number> {
    const after = afterId ? `FILTER(STR(?n) > ${sparqlLiteral(literal(`${SUBJECT_PREFIX}${afterId}`))})` : '';
    const rows = await this.options.client.select(`SELECT ?n WHERE { GRAPH ${this.graphOf(username)} {
  ?n ${sparqlIri(P.type)} ?type ${after} } } LIMIT ${limit}`);
    return rows.length;
  }

  /** What an activity that reached these users' inboxes notifies each of them of, recorded. */
  private async received({ activity, box, usernames }: ActivityEvent): Promise<void> {
    const activityIri = idOf(activity);
    const actor = idOf(activity.actor);
    if (box !== 'inbox' || !activityIri || !actor) {
      return;
    }
    for (const username of usernames) {
      if (actor === this.options.accounts.urls.actor(username)) {
        continue;
      }
      const recorded = await this.notificationFor(activity, actor, username);
      if (recorded) {
        await this.record(username, activityIri, recorded);
      }
    }
  }

  private async notificationFor(activity: Json, actor: string, username: string): Promise<Recorded | undefined> {
    const { urls } = this.options.accounts;
    const own = urls.actor(username);
    const objectIri = idOf(activity.object);
    switch (typeOf(activity)) {
      case 'Follow': {
        if (objectIri !== own) {
          return undefined;
        }
        const locked = await this.options.profiles.isTrue(own, `${AS_NS}manuallyApprovesFollowers`);
        return { type: locked ? 'follow_request' : 'follow', actor };
      }
      case 'Like':
      case 'Announce': {
        const object = objectIri?.startsWith(urls.base) ? await this.options.activities.read(objectIri) : undefined;
        if (!object || idOf(object.attributedTo) !== own) {
          return undefined;
        }
        return { type: typeOf(activity) === 'Like' ? 'favourite' : 'reblog', actor, status: objectIri };
      }
      case 'Create': {
        const object = isObject(activity.object) ? activity.object : objectIri ? await this.options.activities.read(objectIri) : undefined;
        if (!object || !objectIri || !this.mentions(object, own)) {
          return undefined;
        }
        return { type: 'mention', actor, status: objectIri, inInbox: !objectIri.startsWith(urls.base) };
      }
      case 'Update': {
        const type = isObject(activity.object) ? typeOf(activity.object) : undefined;
        if (!objectIri || objectIri === actor || (type !== undefined && !STATUS_LIKE.has(type))) {
          return undefined;
        }
        const interacted = await this.options.collections.contains(urls.collection(username, 'liked'), objectIri) ||
          (await this.options.records.activitiesOn(urls.collection(username, 'outbox'), own, `${AS_NS}Announce`, objectIri)).length > 0;
        return interacted ? { type: 'update', actor, status: objectIri } : undefined;
      }
      default:
        return undefined;
    }
  }

  /** Whether a post mentions `actor` (a Mention tag) or addresses it by name. */
  private mentions(object: Json, actor: string): boolean {
    const tags = Array.isArray(object.tag) ? object.tag : object.tag ? [ object.tag ] : [];
    if (tags.some((tag): boolean => isObject(tag) && typeOf(tag) === 'Mention' && idOf(tag.href) === actor)) {
      return true;
    }
    return [ object.to, object.cc, object.bto, object.bcc, object.audience ].some((field): boolean => idsOf(field).includes(actor));
  }

  /** Keeps the notification unless the activity made one for this user already, and tells listeners of a new one. */
  private async record(username: string, activityIri: string, recorded: Recorded): Promise<void> {
    const reader = this.readerOf(username);
    // Never a notification about a status the user could not read (its audience checked, nothing built:
    // a page of notifications builds each status as it is read).
    if (recorded.status && !recorded.inInbox && !await this.options.statuses.mayRead(recorded.status, reader)) {
      return;
    }
    const id = uuidv7();
    const graph = this.graphOf(username);
    const subject = sparqlIri(`${SUBJECT_PREFIX}${id}`);
    const activity = sparqlIri(activityIri);
    await this.options.client.update(`INSERT { GRAPH ${graph} { ${subject} ${sparqlIri(P.type)} ${sparqlLiteral(literal(recorded.type))} ;
  ${sparqlIri(P.activity)} ${activity} ; ${sparqlIri(P.account)} ${sparqlIri(recorded.actor)}
  ${recorded.status ? `; ${sparqlIri(P.status)} ${sparqlIri(recorded.status)}` : ''} . } }
WHERE { FILTER NOT EXISTS { GRAPH ${graph} { ?known ${sparqlIri(P.activity)} ${activity} } } }`);
    // Listeners learn whether this run kept it (a delivery seen before notifies nobody again) and build
    // the entity only when they have somebody to tell, each at most once.
    let kept: Promise<boolean> | undefined;
    let built: Promise<MastodonNotification | undefined> | undefined;
    const made: NewNotification = { id, type: recorded.type, actor: recorded.actor,
      kept: async(): Promise<boolean> => {
        kept ??= this.options.client.ask(`ASK { GRAPH ${graph} { ${subject} ${sparqlIri(P.activity)} ${activity} } }`);
        return kept;
      },
      entity: async(): Promise<MastodonNotification | undefined> => {
        built ??= made.kept().then(async(yes): Promise<MastodonNotification | undefined> => yes ?
          this.entity(id, recorded.type, recorded.actor, recorded.status, reader, new Map()) :
          undefined);
        return built;
      } };
    for (const listener of this.listeners) {
      listener(username, made);
    }
  }

  private async entity(id: string, type: NotificationType, actor: string, statusIri: string | undefined, reader: Reader,
    memo: Map<string, Promise<MastodonAccount>>): Promise<MastodonNotification | undefined> {
    const time = MastodonRecords.timeOf(id);
    if (!time || await this.options.filter?.hidesNotificationsFrom(actor, reader.username)) {
      return undefined;
    }
    const [ account, shown ] = await Promise.all([
      this.options.accounts.accountOf(actor, memo),
      statusIri ? this.options.statuses.shown(statusIri, reader) : undefined,
    ]);
    const [ status ] = shown ? await this.options.statuses.filtered([ shown ], reader, 'notifications') : [];
    if (statusIri && !status) {
      // Deleted since, no longer the user's to read, or hidden by their filters: not shown.
      return undefined;
    }
    return { id, type, created_at: time.toISOString(), account, ...status ? { status } : {} };
  }

  private readerOf(username: string): Reader {
    return { iri: this.options.accounts.urls.actor(username), username };
  }

  private graphOf(username: string): string {
    // Named by the actor, not the username: servers sharing a store never share a user's graph.
    return sparqlIri(`urn:fedpod:mastodon:notifications:${this.options.accounts.urls.actor(username)}`);
  }
}

const STATUS_LIKE = new Set([ 'Note', 'Question', 'Article', 'Page', 'Event', 'Video', 'Audio', 'Image' ]);
