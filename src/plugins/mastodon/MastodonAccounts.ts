import type { Collections } from '../../storage/Collections';
import type { AccountStore } from '../accounts/AccountStore';
import type { Json } from '../activitypub/ActivityJson';
import type { ActorProfiles } from '../activitypub/ActorProfiles';
import { ActorUrls } from '../activitypub/ActorUrls';
import type { RemoteActorCache } from '../activitypub/fetch/RemoteActorCache';
import type { WebFingerResolver } from '../activitypub/fetch/WebFingerResolver';
import type { MastodonAccount } from './AccountEntity';
import { toAccount } from './AccountEntity';
import type { MastodonRecords } from './MastodonRecords';

export interface MastodonAccountsOptions {
  baseUrl: string;
  accounts: AccountStore;
  profiles: ActorProfiles;
  collections: Collections;
  /** Remote actors: those cached are shown as they are; others are fetched (through the outbound guard). */
  actors: RemoteActorCache;
  records: MastodonRecords;
  /** Handles of other servers, for lookups (none: only this server's accounts are looked up). */
  resolver?: WebFingerResolver;
}

/**
 * Accounts for the Mastodon API: a local user's from their actor document and collections (the id
 * is the username), a remote actor's from its document (the id from MastodonRecords). Each call
 * takes a cache that lives for one request, as a timeline names the same authors many times.
 */
export class MastodonAccounts {
  public readonly urls: ActorUrls;
  private readonly host: string;
  private readonly options: MastodonAccountsOptions;

  public constructor(options: MastodonAccountsOptions) {
    this.options = options;
    this.urls = new ActorUrls(options.baseUrl);
    this.host = new URL(this.urls.base).host;
  }

  /** The account of an actor IRI; a remote actor that cannot be fetched is shown from its IRI alone. */
  public async accountOf(actor: string, cache = new Map<string, Promise<MastodonAccount>>()): Promise<MastodonAccount> {
    let account = cache.get(actor);
    if (!account) {
      account = this.build(actor);
      cache.set(actor, account);
    }
    return account;
  }

  /** The account with this id, or undefined. */
  public async byId(id: string): Promise<MastodonAccount | undefined> {
    if (await this.options.accounts.findByUsername(id)) {
      return this.accountOf(this.urls.actor(id));
    }
    const [ iri ] = await this.options.records.candidatesFor(id);
    return iri && !iri.startsWith(this.urls.base) ? this.accountOf(iri) : undefined;
  }

  /** `user` or `user@host`: this server's from its accounts, others' by WebFinger and their actor documents. */
  public async lookup(acct: string): Promise<MastodonAccount | undefined> {
    const [ username, host ] = acct.replace(/^@/u, '').toLowerCase().split('@');
    if (host !== undefined && host !== this.host.toLowerCase()) {
      const { resolver, actors } = this.options;
      try {
        return resolver ? await this.accountOf((await actors.getActor(await resolver.resolve(acct))).id) : undefined;
      } catch {
        // Unknown or unreachable: no such record.
        return undefined;
      }
    }
    return await this.options.accounts.findByUsername(username) ? this.accountOf(this.urls.actor(username)) : undefined;
  }

  /** The id of an actor's account without reading it (a mention's). */
  public async idOf(actor: string): Promise<string> {
    return this.urls.usernameOf(actor) ?? this.options.records.idOf(actor);
  }

  private async build(actor: string): Promise<MastodonAccount> {
    const username = this.urls.usernameOf(actor);
    const images = { defaultAvatar: `${this.urls.base}favicon.ico`, defaultHeader: `${this.urls.base}favicon.ico`,
      localHost: this.host };
    if (username !== undefined) {
      const { profiles, collections } = this.options;
      // One query for the three counts: the collections keep their totals, so none is counted item by item.
      const [ document, [ followers, following, statuses ]] = await Promise.all([
        profiles.read(actor),
        collections.counts(([ 'followers', 'following', 'outbox' ] as const).map((name): string => this.urls.collection(username, name))),
      ]);
      return toAccount(document ?? { id: actor, preferredUsername: username }, { ...images, id: username,
        counts: { followers, following, statuses }});
    }
    let document: Json | undefined = this.options.actors.peekActor(actor);
    if (!document) {
      try {
        document = await this.options.actors.getActor(actor);
      } catch {
        // Gone or unreachable: the account is shown from its IRI.
        document = { id: actor };
      }
    }
    return toAccount(document, { ...images, id: await this.options.records.idOf(actor) });
  }
}
