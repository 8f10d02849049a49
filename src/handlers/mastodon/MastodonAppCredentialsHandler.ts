import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import { applicationEntity } from '../../plugins/mastodon/OAuthRecords';
import { FedpodHttpError } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

/**
 * GET /api/v1/apps/verify_credentials: the app of the request's OAuth token (a user's or the app's
 * own), as Mastodon's Application entity without its secret. Other tokens have no app: 401.
 */
export class MastodonAppCredentialsHandler extends JsonHttpHandler {
  public constructor(private readonly oauth: MastodonOAuthService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    request.resume();
    const clientId = operation.agent.app;
    const app = clientId === undefined ? undefined : await this.oauth.app(clientId);
    if (!app) {
      throw new FedpodHttpError(401, 'The access token is invalid', 'This needs the OAuth token of an app.',
        { 'www-authenticate': 'Bearer' });
    }
    sendJson(response, 200, applicationEntity(app), { 'cache-control': 'no-store' });
  }
}
