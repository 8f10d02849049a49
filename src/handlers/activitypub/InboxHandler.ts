import { INSTANCE_ACTOR } from '../../plugins/activitypub/fetch/InstanceActorInitializer';
import type { AccountStore } from '../../plugins/accounts/AccountStore';
import { idOf, idsOf, isObject, typeOf, withStorableIds } from '../../plugins/activitypub/ActivityJson';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { InboxJob } from '../../plugins/activitypub/delivery/DeliveryJobs';
import { QUEUES } from '../../plugins/activitypub/delivery/DeliveryJobs';
import type { RemoteActorCache } from '../../plugins/activitypub/fetch/RemoteActorCache';
import type { HttpSignatureVerifier } from '../../plugins/activitypub/signatures/HttpSignatureVerifier';
import type { UserDomainBlocks } from '../../plugins/moderation/UserDomainBlocks';
import type { JobQueueFactory } from '../../plugins/queue/JobQueueFactory';
import { badRequest, FedpodHttpError, forbidden, notFound } from '../../util/HttpErrors';
import { parseJson, readBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { RequestMatcher } from '../http/RequestMatcher';
import type { OperationInput, OperationTarget } from '../http/Operation';


/**
 * POST to an actor's inbox or to the shared inbox (`/inbox`): the HTTP signature (draft-cavage or
 * RFC 9421), its digest and date window are checked, and the key's owner must be the activity's
 * actor — otherwise 401 with a JSON error and nothing is kept. A valid delivery is put on the durable
 * inbox queue and answered 202; its effects run from the queue (InboxService).
 */
export class InboxHandler extends JsonHttpHandler implements RequestMatcher {
  private readonly urls: ActorUrls;
  private readonly origin: string;
  private readonly sharedPath: string;

  public constructor(
    baseUrl: string,
    private readonly verifier: HttpSignatureVerifier,
    private readonly actors: RemoteActorCache,
    private readonly queues: JobQueueFactory,
    private readonly accounts: AccountStore,
    private readonly maxBodyBytes = 1_048_576,
    /** Users' own domain blocks: a personal inbox refuses deliveries from a domain its owner blocked. */
    private readonly userDomainBlocks?: UserDomainBlocks,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
    this.origin = new URL(this.urls.base).origin;
    this.sharedPath = new URL(this.urls.sharedInbox()).pathname;
  }

  public accepts({ request, operation }: OperationInput): boolean {
    return request.method === 'POST' && this.target(operation.target) !== undefined;
  }

  public override async canHandle(input: OperationInput): Promise<void> {
    if (!this.accepts(input)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const owner = this.target(operation.target)!;
    // The instance actor has no account, and takes reports (Flags) as Mastodon's does.
    const account = owner && owner !== INSTANCE_ACTOR ? await this.accounts.findByUsername(owner) : undefined;
    if (owner && owner !== INSTANCE_ACTOR && !account) {
      request.resume();
      throw notFound(`No actor ${owner}`);
    }
    if (account?.deleted) {
      request.resume();
      throw new FedpodHttpError(410, 'gone', `${owner} was deleted.`);
    }
    const body = await readBody(request, this.maxBodyBytes);
    const verified = await this.verifier.verify(
      { method: 'POST', url: `${this.origin}${operation.target.sent}`, headers: request.headers, body },
      async(keyId, options): Promise<{ publicKey: import('node:crypto').KeyObject; owner: string }> =>
        this.actors.getKey(keyId, options),
    );
    if (!verified.ok) {
      throw new FedpodHttpError(401, 'invalid_signature', `The HTTP signature is not valid: ${verified.reason}.`);
    }
    const activity = parseJson(body.toString('utf8'));
    // Ids made storable before anything else (repairIri): the 202, the job and the inbox name the same id.
    withStorableIds(activity);
    if (!isObject(activity) || !idOf(activity) || !typeOf(activity)) {
      throw badRequest('An activity needs an id and a type.', 'invalid_activity');
    }
    // Some servers (Prismo) give `actor` as an array: the signer must be one of them, and is the actor
    // the activity is processed as.
    if (!idsOf(activity.actor).includes(verified.owner)) {
      throw new FedpodHttpError(401, 'signer_mismatch', 'The request is signed with a key of another actor than the activity\'s.');
    }
    if (Array.isArray(activity.actor)) {
      activity.actor = verified.owner;
    }
    if (owner && await this.userDomainBlocks?.blocks(owner, verified.owner)) {
      throw forbidden(`${owner} blocked the domain of ${verified.owner}.`, 'domain_blocked');
    }
    const job: InboxJob = { activity, ...owner ? { inboxOwner: owner } : {}};
    await this.queues.create<InboxJob>(QUEUES.inbox).add(job, { jobId: `inbox:${idOf(activity)}:${owner || 'shared'}` });
    sendJson(response, 202, { status: 'accepted', id: idOf(activity) });
  }

  /** '' for the shared inbox, the username for a personal one, undefined for other paths. */
  private target({ path, iri }: OperationTarget): string | undefined {
    if (path === this.sharedPath) {
      return '';
    }
    if (!iri.endsWith('/inbox')) {
      return undefined;
    }
    return this.urls.usernameOf(iri.slice(0, -'/inbox'.length));
  }
}
