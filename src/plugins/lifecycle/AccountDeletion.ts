import { getLoggerFor } from '@solid/community-server';
import type { Collections } from '../../storage/Collections';
import { documentMetadata, type ResourceGraphs } from '../../storage/ResourceGraphs';
import { RDF_TYPE } from '../../storage/StoreVocabulary';
import { forbidden, notFound } from '../../util/HttpErrors';
import { messageOf } from '../../util/Errors';
import type { Json } from '../activitypub/ActivityJson';
import { AS_NS, AS_PUBLIC } from '../activitypub/ActivityVocabulary';
import { ACTOR_COLLECTIONS, ActorUrls } from '../activitypub/ActorUrls';
import type { DeliveryScheduler } from '../activitypub/DeliveryScheduler';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../ldp/Contexts';
import type { JsonLdParser } from '../ldp/JsonLdParser';
import { generatedName } from '../ldp/ResourceIds';
import type { UserStorage } from '../ldp/UserStorage';
import type { WebhookService } from '../webhooks/WebhookService';
import type { Account } from '../accounts/Account';
import type { AccountStore } from '../accounts/AccountStore';
import type { PasswordHasher } from '../accounts/PasswordHasher';
import { hasControlCharacter } from '../accounts/SignupValidator';
import type { AccountDataRemover } from '../accounts/AccountDataRemover';

/** A password hash no password matches (PasswordHasher refuses anything but scrypt's). */
const NO_PASSWORD = 'deleted';

/** What AccountDeletion is made of (an options object: more than six parts). */
export interface AccountDeletionOptions {
  /** Public base URL. */
  baseUrl: string;
  accounts: AccountStore;
  hasher: PasswordHasher;
  store: ResourceGraphs;
  parser: JsonLdParser;
  collections: Collections;
  delivery: DeliveryScheduler;
  /** The users' storages (the WebACL setup), removed with the account. */
  storage?: UserStorage;
  /** The users' webhooks (when the setup has them), revoked with the account. */
  webhooks?: WebhookService;
  /** What other parts of the setup keep of an account (the Mastodon API's records), removed with it. */
  removers?: AccountDataRemover;
}

/**
 * Deletes a local account, in steps that each can be run again, so a deletion interrupted by a crash
 * is finished at the next start-up (`resumeAll`) or by asking again:
 * 1. the account record is marked deleted, with the id of its Delete activity: from then on no
 *    password or token works (the commit point);
 * 2. the Delete of the actor is stored and handed to the durable delivery queue for every remote
 *    actor that knew it (its followers and those it follows; shared inboxes are preferred by the
 *    fan-out), before anything is removed, and the record notes that it was;
 * 3. the account leaves local users' followers and following; its posts, its activities, its
 *    collections, its actor document, its storage (files and media), its webhooks and what other
 *    parts keep of it (`removers`: the Mastodon API's records) are removed;
 * 4. the record is marked done. It stays, so the name is never given again (signup answers 409) and
 *    the actor answers 410. The key files stay too: they sign the Delete's deliveries and retries.
 */
export class AccountDeletion {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;

  public constructor(private readonly options: AccountDeletionOptions) {
    this.urls = new ActorUrls(options.baseUrl);
  }

  /** A user deletes their own account: the password is required (403 `wrong_password` otherwise). */
  public async deleteWithPassword(username: string, password: unknown): Promise<void> {
    const account = await this.options.accounts.findByUsername(username);
    if (!account || account.deleted) {
      throw notFound(`No account ${username}.`, 'not_found');
    }
    if (typeof password !== 'string' || hasControlCharacter(password) || !await this.options.hasher.verify(password, account.passwordHash)) {
      throw forbidden('The password is wrong.', 'wrong_password');
    }
    await this.run(account);
  }

  /** The operator deletes an account, or finishes a deletion that was interrupted. */
  public async delete(username: string): Promise<Account> {
    const account = await this.options.accounts.findByUsername(username.toLowerCase());
    if (!account) {
      throw notFound(`No account ${username}.`, 'not_found');
    }
    return this.run(account);
  }

  /** Whether the account of this name was deleted (or is being deleted). */
  public async isDeleted(username: string): Promise<boolean> {
    return Boolean((await this.options.accounts.findByUsername(username))?.deleted);
  }

  /** Finishes every deletion a crash interrupted (at start-up). A failure is logged, not thrown. */
  public async resumeAll(): Promise<void> {
    for (const username of await this.options.accounts.list()) {
      const account = await this.options.accounts.findByUsername(username);
      if (account?.deleted && !account.deleted.done) {
        this.logger.info(`Resuming the deletion of ${username}`);
        try {
          await this.run(account);
        } catch (error: unknown) {
          this.logger.error(`Could not finish deleting ${username}: ${messageOf(error)}`);
        }
      }
    }
  }

  private async run(start: Account): Promise<Account> {
    let account = start;
    const { username, webId } = account;
    const now = new Date();
    if (!account.deleted) {
      const activity = this.urls.url('activity', { id: generatedName(now) });
      account = { ...account, passwordHash: NO_PASSWORD, credentialsChanged: now.toISOString(),
        deleted: { at: now.toISOString(), activity }};
      await this.options.accounts.update(account);
      this.logger.info(`Deleting account ${username}`);
    }
    const deleted = account.deleted!;
    if (!deleted.enqueued) {
      await this.sendDelete(username, webId, deleted.activity, new Date(deleted.at));
      account = { ...account, deleted: { ...deleted, enqueued: true }};
      await this.options.accounts.update(account);
    }
    if (!account.deleted!.done) {
      await this.removeData(username, webId);
      account = { ...account, deleted: { ...account.deleted!, done: true }};
      await this.options.accounts.update(account);
      this.logger.info(`Account ${username} deleted`);
    }
    return account;
  }

  /** Stores the Delete (unless a run before did) and queues it for every remote actor that knew this one. */
  private async sendDelete(username: string, webId: string, id: string, at: Date): Promise<void> {
    const { collections, store } = this.options;
    const recipients = new Set<string>();
    for (const name of [ 'followers', 'following' ] as const) {
      for (const actor of await collections.all(this.urls.collection(username, name))) {
        if (!actor.startsWith(this.urls.base)) {
          recipients.add(actor);
        }
      }
    }
    const activity: Json = { '@context': ACTIVITYSTREAMS_CONTEXT_URL, id, type: 'Delete', actor: webId, object: webId,
      to: [ AS_PUBLIC ], published: at.toISOString() };
    if (!await store.exists(id)) {
      const data = await this.options.parser.toQuads(activity, id, { fediverse: true });
      await store.createInContainer(this.urls.url('activities'), id, data, documentMetadata(id, at), at);
    }
    // The fan-out job is named by the activity: queued again after a crash, it is one job.
    await this.options.delivery.schedule(activity, username, [ ...recipients ]);
  }

  private async removeData(username: string, webId: string): Promise<void> {
    const { collections, store } = this.options;
    // Local users' relations to it, as a Delete received from another server removes them.
    for (const collection of await collections.collectionsContaining(webId, '/followers', '/following')) {
      await collections.remove(collection, webId);
    }
    const activities = this.urls.url('activities');
    const objects = this.urls.url('objects');
    const deleteActivity = (await this.options.accounts.findByUsername(username))?.deleted?.activity;
    for (const activity of await collections.all(this.urls.collection(username, 'outbox'))) {
      if (activity === deleteActivity) {
        continue;
      }
      const data = await store.readData(activity);
      const created = data.some((entry): boolean => entry.subject.value === activity && entry.predicate.value === RDF_TYPE &&
        entry.object.value === `${AS_NS}Create`);
      const object = data.find((entry): boolean => entry.subject.value === activity && entry.predicate.value === `${AS_NS}object`);
      if (created && object?.object.value.startsWith(objects)) {
        await store.delete(object.object.value, objects);
      }
      await store.delete(activity, activities);
    }
    for (const name of ACTOR_COLLECTIONS) {
      await collections.clear(this.urls.collection(username, name));
    }
    await store.delete(webId, this.urls.url('actors'));
    await this.options.storage?.remove(username);
    for (const webhook of await this.options.webhooks?.list(webId) ?? []) {
      await this.options.webhooks!.revoke(webhook.iri);
    }
    await this.options.removers?.removeAccountData(username, webId);
  }
}
