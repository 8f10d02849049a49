import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import { oauthError } from '../../plugins/mastodon/OAuthErrors';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { clientCredentials, readOAuthParams, single } from './OAuthParams';

/**
 * POST /oauth/revoke (RFC 7009): the app revokes one of its access or refresh tokens (with its
 * pair); it is refused by every node from the next request on. 200 `{}` whether the token was
 * known or not, as the RFC says; wrong client credentials: 401 invalid_client.
 */
export class OAuthRevokeHandler extends JsonHttpHandler {
  public constructor(private readonly oauth: MastodonOAuthService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const params = await readOAuthParams(request, operation.target.query);
    const token = single(params, 'token');
    if (!token) {
      throw oauthError(400, 'invalid_request', 'token is missing.');
    }
    await this.oauth.revoke(clientCredentials(request, params), token);
    sendJson(response, 200, {}, { 'cache-control': 'no-store' });
  }
}
