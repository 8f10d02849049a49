import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { OutboxService } from '../../plugins/activitypub/outbound/OutboxService';
import { forbidden } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';
import { ACTIVITY_JSON } from './ActivityContentType';


/**
 * POST /actors/<username>/outbox (ActivityPub client-to-server), behind the route's PathOwnerAccess:
 * no Authorization header: 403, as the API documents (docs/activitypub.md); an invalid token: 401; another user's token: 403. Answers 201 with Location of the
 * activity and the activity as JSON.
 */
export class OutboxHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly outbox: OutboxService,
    private readonly maxBodyBytes = 1_048_576,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if (request.method !== 'POST' || !this.owner(operation.target.iri)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = this.owner(operation.target.iri)!;
    // The pipeline authenticated the token and its route let only the outbox's owner through;
    // checked again here, since this handler must never post for anyone else.
    if (operation.agent.username !== username) {
      request.resume();
      throw forbidden('Posting to an outbox needs the Authorization header with the outbox owner\'s token.', 'not_owner');
    }
    const parsed = await readJsonBody(request, this.maxBodyBytes);
    const posted = await this.outbox.post(username, parsed);
    sendJson(response, 201, posted.activity, { location: posted.id }, ACTIVITY_JSON);
  }

  private owner(iri: string): string | undefined {
    return iri.endsWith('/outbox') ? this.urls.usernameOf(iri.slice(0, -'/outbox'.length)) : undefined;
  }
}
