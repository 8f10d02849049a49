import type { AccountDeletion } from '../../plugins/lifecycle/AccountDeletion';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import { FedpodHttpError } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';

/**
 * 410 Gone for the actor of a deleted account, whatever the representation asked for (first in the
 * actor route's list): other servers that fetch it learn it is gone for good, not missing.
 */
export class DeletedActorHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly deletion: AccountDeletion) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ operation }: OperationInput): Promise<void> {
    const username = this.urls.usernameOf(operation.target.iri);
    if (!username || !await this.deletion.isDeleted(username)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, operation }: OperationInput): Promise<void> {
    request.resume();
    throw new FedpodHttpError(410, 'gone', `${operation.target.iri} was deleted.`);
  }
}
