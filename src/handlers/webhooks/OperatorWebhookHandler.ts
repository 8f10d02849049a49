import type { WebhookService } from '../../plugins/webhooks/WebhookService';
import { badRequest, methodNotAllowed } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

const BODY_LIMIT = 16 * 1024;

/**
 * The operator's webhook commands, answered by the running server (`/operator/webhooks`, behind
 * OperatorAccess) so that `fedpod webhooks` needs no config of its own and every URI is minted under
 * the server's base URL: GET lists (`?user=` a username or WebID), POST `{user, action}` generates,
 * DELETE `{uri}` revokes any user's webhook by its URI or record IRI.
 */
export class OperatorWebhookHandler extends JsonHttpHandler {
  public constructor(private readonly service: WebhookService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    switch (request.method) {
      case 'GET': {
        const user = operation.target.query.get('user');
        const webId = user ? (await this.service.resolveUser(user)).webId : undefined;
        sendJson(response, 200, (await this.service.list(webId)).map((record) =>
          ({ iri: record.iri, user: record.user, action: record.action, created: record.created })));
        return;
      }
      case 'POST': {
        const { user, action } = this.fields(await readJsonBody(request, BODY_LIMIT), [ 'user', 'action' ]);
        // An unknown action is a 400 whose body lists the allowed ones (UnknownActionError's details).
        sendJson(response, 201, await this.service.generate(await this.service.resolveUser(user), action));
        return;
      }
      case 'DELETE': {
        const { uri } = this.fields(await readJsonBody(request, BODY_LIMIT), [ 'uri' ]);
        const record = await this.service.revoke(uri);
        sendJson(response, 200, { iri: record.iri, user: record.user, action: record.action });
        return;
      }
      default:
        throw methodNotAllowed('Use GET (list), POST (generate) or DELETE (revoke).', 'GET, POST, DELETE');
    }
  }

  /** The named string fields of a JSON object body; a 400 naming the first one missing. */
  private fields<T extends string>(body: unknown, names: T[]): Record<T, string> {
    const object = body && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : {};
    for (const name of names) {
      if (typeof object[name] !== 'string' || object[name] === '') {
        throw badRequest(`Send a JSON object with ${names.join(' and ')} as strings (${name} is missing).`, 'invalid_body');
      }
    }
    return object as Record<T, string>;
  }
}
