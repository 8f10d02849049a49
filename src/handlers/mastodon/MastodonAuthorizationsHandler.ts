import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import { methodNotAllowed, notFound } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

/**
 * The Mastodon apps a user authorized, as JSON for scripts (the account page shows the same):
 * GET /auth/apps → `[{ clientId, name, website?, scopes, created, lastUsed }]`, and
 * DELETE /auth/apps/:client → 204, revoking every token the user gave that app (404 when none).
 * The route's policy lets only a local user in (their Fedpod or Solid-OIDC token: an app's OAuth
 * token counts on the Mastodon API only, so no app can list or revoke the others).
 */
export class MastodonAuthorizationsHandler extends JsonHttpHandler {
  public constructor(private readonly oauth: MastodonOAuthService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    request.resume();
    const username = operation.agent.username!;
    const client = operation.params.client;
    if (client === undefined && (request.method === 'GET' || request.method === 'HEAD')) {
      sendJson(response, 200, await this.oauth.authorizations(username), { 'cache-control': 'no-store' });
      return;
    }
    if (client !== undefined && request.method === 'DELETE') {
      if (!await this.oauth.revokeAuthorization(username, client)) {
        throw notFound('You have not authorized this app.', 'not_authorized');
      }
      response.writeHead(204).end();
      return;
    }
    throw client === undefined ? methodNotAllowed('/auth/apps takes GET.', 'GET, HEAD') : methodNotAllowed('An app takes DELETE.', 'DELETE');
  }
}
