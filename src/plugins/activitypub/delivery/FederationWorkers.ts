import type { KeyObject } from 'node:crypto';
import { createPrivateKey } from 'node:crypto';
import type { Finalizable } from '@solid/community-server';
import { getLoggerFor, Initializer } from '@solid/community-server';
import type { Metrics } from '../../observability/Metrics';
import { NO_METRICS } from '../../observability/NoopMetrics';
import type { JobQueue, QueuedJob } from '../../queue/JobQueue';
import type { JobQueueFactory } from '../../queue/JobQueueFactory';
import { PermanentJobError } from '../../queue/PermanentJobError';
import { withoutBlindCopies } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import { ActorUrls } from '../ActorUrls';
import type { ActorKeyStore } from '../ActorKeyStore';
import type { RemoteActorCache } from '../fetch/RemoteActorCache';
import type { RemoteFetcher } from '../fetch/RemoteFetcher';
import type { InboxService } from '../inbound/InboxService';
import type { ByteSigner } from '../signatures/ByteSigner';
import { HttpSigner } from '../signatures/HttpSigner';
import type { DeliveryJob, FanOutJob, InboxJob, LocalDeliveryJob } from './DeliveryJobs';
import { QUEUES } from './DeliveryJobs';
import { InboxResolver, inboxOf } from './InboxResolver';
import { messageOf, statusOf } from '../../../util/Errors';
import { SharedLoads } from '../../../util/SharedLoads';

const BODY_CACHE_ENTRIES = 256;

/** Statuses of a refusal of the data itself (unreadable JSON-LD, an IRI or term a store refuses, too large). */
const DATA_REFUSALS = new Set([ 400, 413, 414, 415, 422 ]);

/**
 * Whether a processing error is the data's fault, so that no retry can succeed (a poison message):
 * a 4xx from the parser or the SPARQL terms, or the store refusing the update. A store that is down
 * or overloaded (5xx, network errors) is retried.
 */
export function refusedData(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && DATA_REFUSALS.has(status);
}

/** What FederationWorkers is made of (an options object: more than six parts). */
export interface FederationWorkersOptions {
  /** Public base URL. */
  baseUrl: string;
  queues: JobQueueFactory;
  activities: ActivityRepository;
  inbox: InboxService;
  actors: RemoteActorCache;
  fetcher: RemoteFetcher;
  keyStore: ActorKeyStore;
  /** Deliveries in flight at once (default 32). */
  deliveryConcurrency?: number;
  /** `cavage` (default), or `rfc9421` (RFC 9421 first, cavage again when refused with 400/401). */
  signatureScheme?: string;
  /** Where delivery attempts are counted by host and outcome. */
  metrics?: Metrics;
  /** Finds the inboxes of a fan-out's recipients (default: from cached or fetched actors only). */
  resolver?: InboxResolver;
  /**
   * Received activities processed at once (default 64). Each waits on a store read and one update
   * group (shared with the others' updates and synced once) in turn, so few at once leave both
   * threads idle while the queue grows. Measured in bench/federation on 2 cores, with one update per
   * activity: 128 at once processed 20,000 Creates no faster than 64 (810 and 1,015/s against 809
   * and 959/s) and bursts of 4,000 slower (760 and 815/s against 944 and 1,058/s).
   */
  inboxConcurrency?: number;
  /** Makes the signatures of deliveries (default: libuv's thread pool, one call each). */
  byteSigner?: ByteSigner;
}

/**
 * Runs the federation queues (started at server start-up, closed at shutdown):
 * - fan-out: an outbox activity's addressees become local jobs and one delivery job per remote inbox
 *   (shared inboxes preferred, so a host with many followers gets one POST);
 * - delivery: read the activity, drop bto/bcc, sign it afresh (every attempt), POST it. 2xx is done;
 *   410 and other 4xx (but 408, 429) are permanent (dead letter); anything else is retried with backoff;
 * - local: an activity between local actors, processed without HTTP;
 * - inbox: activities that arrived with a valid signature.
 */
export class FederationWorkers extends Initializer implements Finalizable {
  protected readonly logger = getLoggerFor(this);
  private readonly urls: ActorUrls;
  private readonly signer: HttpSigner;
  /**
   * Senders' keys, read and parsed once: the hundreds of deliveries a fan-out starts at once share
   * one read instead of each parsing the PEM.
   */
  private readonly keys = new SharedLoads(async(username: string): Promise<KeyObject> => this.loadPrivateKey(username), 10_000);
  /**
   * Delivered JSON by activity: a fan-out delivers the same activity many times, and an activity
   * does not change once posted (an edit is a new Update activity). Its deliveries share one read
   * (they each read it before, the first post's deliveries waiting on 32 reads).
   */
  private readonly bodies = new SharedLoads(async(iri: string): Promise<string> => this.readDeliveryBody(iri), BODY_CACHE_ENTRIES);
  private readonly resolver: InboxResolver;
  private readonly queues: JobQueueFactory;
  private readonly activities: ActivityRepository;
  private readonly inbox: InboxService;
  private readonly actors: RemoteActorCache;
  private readonly fetcher: RemoteFetcher;
  private readonly keyStore: ActorKeyStore;
  private readonly deliveryConcurrency: number;
  private readonly signatureScheme: string;
  private readonly metrics: Metrics;
  private readonly inboxConcurrency: number;

  public constructor(options: FederationWorkersOptions) {
    super();
    this.queues = options.queues;
    this.activities = options.activities;
    this.inbox = options.inbox;
    this.actors = options.actors;
    this.fetcher = options.fetcher;
    this.keyStore = options.keyStore;
    this.deliveryConcurrency = options.deliveryConcurrency ?? 32;
    this.signatureScheme = options.signatureScheme ?? 'cavage';
    this.metrics = options.metrics ?? NO_METRICS;
    this.inboxConcurrency = options.inboxConcurrency ?? 64;
    this.signer = new HttpSigner(options.byteSigner);
    this.urls = new ActorUrls(options.baseUrl);
    this.resolver = options.resolver ?? new InboxResolver(options.actors);
  }

  public async handle(): Promise<void> {
    this.queues.create<FanOutJob>(QUEUES.fanOut).process(this.logged(async(job): Promise<void> => this.fanOut(job)), 4);
    this.queues.create<DeliveryJob>(QUEUES.delivery).process(this.logged(async(job): Promise<void> => this.deliver(job)),
      this.deliveryConcurrency);
    this.queues.create<LocalDeliveryJob>(QUEUES.local).process(this.logged(async(job): Promise<void> =>
      this.deliverLocally(job)), 4);
    this.queues.create<InboxJob>(QUEUES.inbox).process(this.logged(async(job): Promise<void> => {
      try {
        await this.inbox.receive(job.data.activity, job.data.inboxOwner);
      } catch (error: unknown) {
        throw refusedData(error) ?
          new PermanentJobError(`${String(job.data.activity.id)} cannot be stored: ${messageOf(error)}`, { cause: error }) :
          error;
      }
    }), this.inboxConcurrency);
  }

  /** Failed runs are logged here (the queue retries them or keeps them as dead letters). */
  private logged<T>(handler: (job: QueuedJob<T>) => Promise<void>): (job: QueuedJob<T>) => Promise<void> {
    return async(job: QueuedJob<T>): Promise<void> => {
      try {
        await handler(job);
      } catch (error: unknown) {
        const message = `${job.queue} job ${job.id} failed (attempt ${job.attempt}): ${messageOf(error)}`;
        if (PermanentJobError.is(error)) {
          this.logger.warn(`${message}; not retried`);
        } else {
          this.logger.warn(message);
          this.logger.debug((error as Error).stack ?? '');
        }
        throw error;
      }
    };
  }

  public async finalize(): Promise<void> {
    await this.queues.closeAll();
    await this.resolver.flush();
    this.fetcher.close();
  }

  private async fanOut({ data }: QueuedJob<FanOutJob>): Promise<void> {
    const localQueue: JobQueue<LocalDeliveryJob> = this.queues.create(QUEUES.local);
    const deliveryQueue: JobQueue<DeliveryJob> = this.queues.create(QUEUES.delivery);
    const locals: string[] = [];
    const remote: string[] = [];
    for (const recipient of data.recipients) {
      const username = this.urls.usernameOf(recipient);
      if (username) {
        locals.push(username);
      } else if (!recipient.startsWith(this.urls.base)) {
        // (A local collection or object that is not an actor has nothing to deliver to.)
        remote.push(recipient);
      }
    }
    // Read while the inboxes are resolved: every delivery of the fan-out sends it.
    if (remote.length > 0) {
      this.bodies.get(data.activity).catch((): void => undefined);
    }
    const { inboxes, unresolved } = await this.resolver.resolve(remote);
    // Every add starts after the last await and is awaited below: a queue refusing one while the
    // inboxes were resolved would otherwise be an unhandled rejection, which ends the process.
    const adds = locals.map((username): Promise<string> =>
      localQueue.add({ activity: data.activity, recipient: username }, { jobId: `local:${data.activity}:${username}` }));
    for (const inbox of inboxes) {
      adds.push(deliveryQueue.add({ activity: data.activity, sender: data.sender, inbox }, { jobId: `deliver:${data.activity}:${inbox}` }));
    }
    for (const recipient of unresolved) {
      adds.push(deliveryQueue.add({ activity: data.activity, sender: data.sender, inbox: '', recipient } as DeliveryJob & { recipient: string },
        { jobId: `deliver:${data.activity}:actor:${recipient}` }));
    }
    // Added together so the queue's group commit makes them durable in a few syncs, not one each.
    await Promise.all(adds);
  }

  private async deliver(job: QueuedJob<DeliveryJob & { recipient?: string }>): Promise<void> {
    try {
      await this.deliverOnce(job);
    } catch (error: unknown) {
      // A domain the operator suspended (RemoteFetcher): trying again would only be refused again.
      if ((error as { code?: unknown }).code === 'DOMAIN_BLOCKED') {
        throw new PermanentJobError(messageOf(error), { cause: error });
      }
      throw error;
    }
  }

  private async deliverOnce({ data, attempt }: QueuedJob<DeliveryJob & { recipient?: string }>): Promise<void> {
    let inbox = data.inbox;
    if (!inbox && data.recipient) {
      inbox = inboxOf(await this.actors.getActor(data.recipient)) ?? '';
      if (!inbox) {
        throw new PermanentJobError(`${data.recipient} has no inbox`);
      }
    }
    const body = await this.bodies.get(data.activity);
    const schemes = this.signatureScheme === 'rfc9421' ? [ 'rfc9421', 'cavage' ] as const : [ 'cavage' ] as const;
    let status = 0;
    for (const scheme of schemes) {
      const headers: Record<string, string> = { 'content-type': 'application/activity+json', host: new URL(inbox).host };
      Object.assign(headers, await this.signer.signAsync({ method: 'POST', url: inbox, headers, body },
        { keyId: `${this.urls.actor(data.sender)}#main-key`, privateKey: await this.keys.get(data.sender) }, scheme));
      try {
        ({ status } = await this.fetcher.post(inbox, body, headers));
      } catch (error: unknown) {
        this.metrics.delivery(headers.host, 'error');
        throw error;
      }
      if (status !== 401 && status !== 400) {
        break;
      }
    }
    const host = new URL(inbox).host;
    if (status >= 200 && status < 300) {
      this.metrics.delivery(host, 'delivered');
      this.logger.debug(`Delivered ${data.activity} to ${inbox} (attempt ${attempt})`);
      return;
    }
    if (status === 410 || (status >= 400 && status < 500 && status !== 408 && status !== 429)) {
      this.metrics.delivery(host, 'refused');
      throw new PermanentJobError(`${inbox} answered ${status}`);
    }
    this.metrics.delivery(host, 'failed');
    throw new Error(`${inbox} answered ${status}`);
  }

  /** The JSON delivered for an activity, without bto/bcc. */
  private async readDeliveryBody(iri: string): Promise<string> {
    const activity = await this.activities.read(iri);
    if (!activity) {
      throw new PermanentJobError(`Activity ${iri} is gone`);
    }
    return JSON.stringify(withoutBlindCopies(activity));
  }

  private async deliverLocally({ data }: QueuedJob<LocalDeliveryJob>): Promise<void> {
    const activity = await this.activities.read(data.activity);
    if (activity) {
      await this.inbox.receiveLocal(activity, data.recipient);
    }
  }

  private async loadPrivateKey(username: string): Promise<KeyObject> {
    const pem = await this.keyStore.privateKeyPem(username);
    if (!pem) {
      throw new PermanentJobError(`No private key for ${username}`);
    }
    return createPrivateKey(pem);
  }
}
