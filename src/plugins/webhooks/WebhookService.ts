import { getLoggerFor } from '@solid/community-server';
import { v7 as uuidv7 } from 'uuid';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { forbidden, notFound } from '../../util/HttpErrors';
import type { AccountStore } from '../accounts/AccountStore';
import type { ChangeCounter } from '../cluster/ChangeCounter';
import { ActorUrls } from '../activitypub/ActorUrls';
import type { Batch } from '../queue/BatchingJobQueue';
import { BatchingJobQueue } from '../queue/BatchingJobQueue';
import type { DeadLetter } from '../queue/JobQueue';
import type { JobQueueFactory } from '../queue/JobQueueFactory';
import type { WebhookActionRegistry } from './WebhookActionRegistry';
import { UnknownActionError } from './WebhookErrors';
import type { WebhookRecord } from './WebhookStore';
import { WebhookStore } from './WebhookStore';
import { DEFAULT_WEBHOOK_CONTEXT, newWebhookSecret, WEBHOOK_SEGMENT, webhookKeyOf } from './WebhookVocabulary';

/** Name of the durable queue of accepted webhook POSTs. */
export const WEBHOOK_QUEUE = 'webhooks';

/** One accepted POST, as queued. */
export interface WebhookJob {
  /**
   * The job's own id (`wh-<UUIDv7>`), unique for ever: given to actions as jobId. Kept in the data
   * rather than as the queue's jobId, which would make the queue deduplicate (a costlier add).
   */
  id: string;
  /** Key of the webhook record. */
  hook: string;
  user: string;
  username: string;
  action: string;
  data: unknown;
  receivedAt: string;
}

/** A generated webhook, as answered to its creator (the only time its URI is shown). */
export interface GeneratedWebhook {
  /** The webhook URI (holds the secret). */
  id: string;
  user: string;
  action: string;
  created: string;
}

interface CacheEntry {
  record: WebhookRecord | undefined;
  /** Epoch ms until which the entry is used without asking the store. */
  fresh: number;
  /** The revocation counter as read before the record was: the entry holds only while it reads the same. */
  revocations: string;
}

/** What WebhookService is made of (an options object: more than six parts). */
export interface WebhookServiceOptions {
  /** Public base URL. */
  baseUrl: string;
  /** The resource graphs (records are resources of the webhooks container). */
  resources: ResourceGraphs;
  /** Accounts, to resolve users named by the CLI. */
  accounts: AccountStore;
  /** The server's queue factory (queue `webhooks`). */
  queues: JobQueueFactory;
  /** The configured actions. */
  registry: WebhookActionRegistry;
  /** Names of the actions a webhook may be generated for (each must be registered). */
  allowedActions: string[];
  /** Container of the webhooks: an absolute URL, or a path relative to the base URL (default `webhooks/`). */
  containerUri?: string;
  /** How long a looked-up record is used before it is read again (default 2000 ms). */
  cacheTtlMs?: number;
  /** Most records kept in memory (default 10,000). */
  cacheSize?: number;
  /** Counter of revocations shared by every node (and the console); see the class comment. */
  revocations?: ChangeCounter;
}

/**
 * Incoming webhooks: generation (over HTTP by a logged-in user, or by an operator with the CLI),
 * lookup of a webhook URI (the hot path: records are cached in memory for at most `cacheTtlMs`),
 * acceptance of a POST into the durable `webhooks` queue, listing and revocation.
 *
 * Revocation holds at once on every node: a revocation bumps the shared `revocations` counter
 * (Redis, or the data directory), each lookup reads it (one GET or one stat, no store query) and a
 * cached record read under an older value is read again from the store. Without a counter, a
 * webhook revoked by another process keeps working until its cache entry expires.
 *
 * A webhook URI is `<containerUri><secret>`, the secret being 32 random bytes (base64url). Only
 * SHA-256 of the secret is stored (as the record's name), so nothing in the store, a container
 * listing or a SPARQL query reveals a URI that works.
 */
export class WebhookService {
  protected readonly logger = getLoggerFor(this);
  public readonly containerUri: string;
  public readonly context: unknown;
  public readonly allowedActions: string[];
  private readonly store: WebhookStore;
  private readonly urls: ActorUrls;
  private readonly cache = new Map<string, CacheEntry>();
  /** Store reads under way, by key, with the counter value read before each: shared only by lookups of that value. */
  private readonly inFlight = new Map<string, { revocations: string; read: Promise<WebhookRecord | undefined> }>();
  /**
   * Keys of secrets that opened a record: hashing the secret was a visible share of a POST's cost.
   * Only secrets of real webhooks are kept (bounded like the cache), so random URIs cannot fill it.
   */
  private readonly keys = new Map<string, string>();
  private queueInstance?: BatchingJobQueue<WebhookJob>;
  private accepted = 0;
  private readonly accounts: AccountStore;
  private readonly queues: JobQueueFactory;
  private readonly registry: WebhookActionRegistry;
  private readonly cacheTtlMs: number;
  private readonly cacheSize: number;
  private readonly revocations?: ChangeCounter;

  /**
   * @param options - The service's parts and settings.
   * @param context - JSON-LD context of the webhook information returned (default
   * DEFAULT_WEBHOOK_CONTEXT: `@vocab` urn:fedpod:ns: with id/type aliases); apart from the options
   * because Components.js reads a raw JSON value only into a constructor parameter. @range {json}
   */
  public constructor(options: WebhookServiceOptions, context: Record<string, unknown>) {
    const { registry, allowedActions } = options;
    this.accounts = options.accounts;
    this.queues = options.queues;
    this.registry = registry;
    this.cacheTtlMs = options.cacheTtlMs ?? 2000;
    this.cacheSize = options.cacheSize ?? 10_000;
    this.revocations = options.revocations;
    this.urls = new ActorUrls(options.baseUrl);
    const resolved = new URL(options.containerUri ?? 'webhooks/', this.urls.base).href;
    this.containerUri = resolved.endsWith('/') ? resolved : `${resolved}/`;
    this.context = context ?? DEFAULT_WEBHOOK_CONTEXT;
    const missing = allowedActions.filter((name): boolean => !registry.has(name));
    if (missing.length > 0) {
      throw new Error(`Webhook allowedActions names actions that are not configured: ${missing.join(', ')} (configured: ${
        registry.names.join(', ') || 'none'})`);
    }
    this.allowedActions = [ ...new Set(allowedActions) ];
    this.store = new WebhookStore(options.resources, this.containerUri);
  }

  /** POSTs accepted (made durable) by this process so far. */
  public get acceptedCount(): number {
    return this.accepted;
  }

  /** The queue of accepted POSTs (opened on first use). */
  public get queue(): BatchingJobQueue<WebhookJob> {
    // Batched: the POSTs accepted in one turn of the event loop are one durable write, not one each.
    this.queueInstance ??= new BatchingJobQueue<WebhookJob>(this.queues.create<Batch<WebhookJob>>(WEBHOOK_QUEUE),
      this.queues.retryPolicy);
    return this.queueInstance;
  }

  /** The username of a user given as a username or a WebID of this server; 404 when there is no such account. */
  public async resolveUser(user: string): Promise<{ webId: string; username: string }> {
    const username = user.includes('/') ? this.urls.usernameOf(user) : user.trim().toLowerCase();
    const account = username ? await this.accounts.findByUsername(username) : undefined;
    if (!account) {
      throw notFound(`No user ${JSON.stringify(user)} on this server.`, 'unknown_user');
    }
    return { webId: account.webId, username: account.username };
  }

  /** Checks that `action` may be bound; a 400 listing the allowed actions otherwise. */
  public checkAction(action: unknown): string {
    if (typeof action !== 'string' || !this.allowedActions.includes(action)) {
      throw new UnknownActionError(action, this.allowedActions);
    }
    return action;
  }

  /** Generates a webhook; the answer holds the only copy of its URI. */
  public async generate(user: { webId: string; username: string }, action: unknown): Promise<GeneratedWebhook> {
    const name = this.checkAction(action);
    // A valid token may outlive its account (deleted or never created here): no webhooks for it.
    if (!await this.accounts.findByUsername(user.username)) {
      throw forbidden(`There is no account ${user.username} (any more).`, 'unknown_account');
    }
    const secret = newWebhookSecret();
    const key = webhookKeyOf(secret);
    const created = new Date().toISOString();
    const revocations = await this.readRevocations();
    const record = await this.store.create({ key, user: user.webId, username: user.username, action: name, created });
    this.remember(key, record, revocations);
    return { id: `${this.containerUri}${secret}`, user: user.webId, action: name, created };
  }

  /** The JSON-LD answer for a generated webhook. */
  public describe(webhook: GeneratedWebhook): Record<string, unknown> {
    return { '@context': this.context, ...webhook };
  }

  /** The JSON-LD listing entry of a stored webhook (its record IRI, never its URI). */
  public describeRecord(record: WebhookRecord): Record<string, unknown> {
    return { id: record.iri, type: 'Webhook', user: record.user, action: record.action, created: record.created };
  }

  /** The secret segment of a URL under the container, or undefined. */
  public segmentOf(iri: string): string | undefined {
    if (!iri.startsWith(this.containerUri)) {
      return undefined;
    }
    const segment = iri.slice(this.containerUri.length);
    return WEBHOOK_SEGMENT.test(segment) ? segment : undefined;
  }

  /** The record a webhook secret opens, or undefined (unknown or revoked). Cached. */
  public async lookup(secret: string): Promise<WebhookRecord | undefined> {
    if (!WEBHOOK_SEGMENT.test(secret)) {
      return undefined;
    }
    const known = this.keys.get(secret);
    const key = known ?? webhookKeyOf(secret);
    const record = await this.byKey(key);
    if (record && known === undefined) {
      if (this.keys.size >= this.cacheSize) {
        this.keys.delete(this.keys.keys().next().value!);
      }
      this.keys.set(secret, key);
    }
    return record;
  }

  /** Queues a POST to a webhook; resolves with the job id once the job is durable. 404 for an unknown URI. */
  public async accept(secret: string, data: unknown, sizeBytes?: number): Promise<string> {
    const record = await this.lookup(secret);
    if (!record) {
      throw notFound('No such webhook (unknown or revoked).', 'unknown_webhook');
    }
    return this.acceptFor(record, data, sizeBytes);
  }

  /**
   * Queues a POST to the webhook of a record just returned by lookup(); resolves with the job id
   * once the job is durable. The HTTP handler looks up before reading the body (an unknown URI's body
   * is never read), so a second lookup here would only add a Redis round trip to every POST.
   */
  public async acceptFor(record: WebhookRecord, data: unknown, sizeBytes?: number): Promise<string> {
    const jobId = `wh-${uuidv7()}`;
    const job: WebhookJob = { id: jobId, hook: record.key, user: record.user, username: record.username, action: record.action,
      data, receivedAt: new Date().toISOString() };
    await this.queue.add(job, { sizeBytes });
    this.accepted += 1;
    return jobId;
  }

  /** Webhooks of a user, or of everyone when `user` is undefined. */
  public async list(user?: string): Promise<WebhookRecord[]> {
    return this.store.list(user);
  }

  /**
   * Revokes a webhook given by its URI or its record IRI (both under the container). With
   * `requester`, only that user's webhook may be revoked (403 otherwise); without, the operator
   * may revoke any. 404 when there is no such webhook.
   */
  public async revoke(iri: string, requester?: string): Promise<WebhookRecord> {
    const segment = this.segmentOf(iri);
    if (!segment) {
      throw notFound(`${iri} is not a webhook of this server.`, 'unknown_webhook');
    }
    // A webhook URI's segment is the secret (stored under its hash); a record IRI's is the key itself.
    let record = await this.freshByKey(webhookKeyOf(segment));
    if (!record) {
      record = await this.freshByKey(segment);
    }
    if (!record) {
      throw notFound('No such webhook (unknown or already revoked).', 'unknown_webhook');
    }
    if (requester !== undefined && record.user !== requester) {
      throw forbidden('This webhook belongs to another user.', 'not_owner');
    }
    await this.store.delete(record.key);
    // Every node (this one included) reads the record again from now on.
    await this.revocations?.bump();
    this.inFlight.delete(record.key);
    this.remember(record.key, undefined, await this.readRevocations());
    return record;
  }

  public async deadLetters(limit = 100): Promise<DeadLetter<WebhookJob>[]> {
    return this.queue.deadLetters(limit);
  }

  /** Reads the record, bypassing the cache (and refreshing it). */
  private async freshByKey(key: string): Promise<WebhookRecord | undefined> {
    const revocations = await this.readRevocations();
    const record = await this.store.find(key);
    this.remember(key, record, revocations);
    return record;
  }

  private async byKey(key: string): Promise<WebhookRecord | undefined> {
    // Read before the store: a revocation completed after this read makes the entry stale, never current.
    const revocations = await this.readRevocations();
    const cached = this.cache.get(key);
    if (cached && cached.fresh > Date.now() && cached.revocations === revocations) {
      return cached.record;
    }
    const flight = this.inFlight.get(key);
    if (flight?.revocations === revocations) {
      return flight.read;
    }
    const read: Promise<WebhookRecord | undefined> = this.store.find(key).then((record): WebhookRecord | undefined => {
      // A revocation (or a newer read) meanwhile replaced this read: its answer must not refill the cache.
      if (this.inFlight.get(key)?.read === read) {
        this.inFlight.delete(key);
        this.remember(key, record, revocations);
      }
      return record;
    }, (error: unknown): never => {
      if (this.inFlight.get(key)?.read === read) {
        this.inFlight.delete(key);
      }
      throw error;
    });
    this.inFlight.set(key, { revocations, read });
    return read;
  }

  private async readRevocations(): Promise<string> {
    return this.revocations ? this.revocations.read() : '';
  }

  /** Unknown keys are remembered for a shorter time than known ones: a new webhook made on another node works soon. */
  private remember(key: string, record: WebhookRecord | undefined, revocations: string): void {
    this.cache.delete(key);
    if (this.cache.size >= this.cacheSize) {
      // Oldest insertion first (Map order): a plain bounded cache.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) {
        this.cache.delete(oldest);
      }
    }
    const ttl = record ? this.cacheTtlMs : Math.min(this.cacheTtlMs, 1000);
    this.cache.set(key, { record, fresh: Date.now() + ttl, revocations });
  }

  /** Used by tests: whether a request for `secret` is answered from memory. */
  public isCached(secret: string): boolean {
    const entry = this.cache.get(webhookKeyOf(secret));
    return entry !== undefined && entry.fresh > Date.now();
  }
}
