import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import type { OAuthTokenAnswer } from '../../plugins/mastodon/OAuthRecords';
import { oauthError } from '../../plugins/mastodon/OAuthErrors';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { clientCredentials, readOAuthParams, single } from './OAuthParams';

/**
 * POST /oauth/token (RFC 6749): grant_type `authorization_code` (with the PKCE code_verifier when
 * the authorization had a code_challenge), `client_credentials` (a token of the app alone) and
 * `refresh_token`. The app authenticates with HTTP Basic or client_id and client_secret in the body.
 * Errors as OAuth 2 answers them: `{ "error", "error_description" }`, 400 or 401 for the client.
 */
export class OAuthTokenHandler extends JsonHttpHandler {
  public constructor(private readonly oauth: MastodonOAuthService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const params = await readOAuthParams(request, operation.target.query);
    const grantType = single(params, 'grant_type');
    let answer: OAuthTokenAnswer;
    switch (grantType) {
      case 'authorization_code': {
        const code = single(params, 'code');
        if (!code) {
          throw oauthError(400, 'invalid_request', 'code is missing.');
        }
        answer = await this.oauth.exchangeCode(clientCredentials(request, params), code, single(params, 'redirect_uri'),
          single(params, 'code_verifier'));
        break;
      }
      case 'client_credentials':
        answer = await this.oauth.clientToken(clientCredentials(request, params), single(params, 'scope'));
        break;
      case 'refresh_token': {
        const refreshToken = single(params, 'refresh_token');
        if (!refreshToken) {
          throw oauthError(400, 'invalid_request', 'refresh_token is missing.');
        }
        answer = await this.oauth.refresh(clientCredentials(request, params), refreshToken, single(params, 'scope'));
        break;
      }
      case undefined:
        throw oauthError(400, 'invalid_request', 'grant_type is missing.');
      default:
        throw oauthError(400, 'unsupported_grant_type', `grant_type ${grantType.slice(0, 50)} is not supported: use authorization_code, client_credentials or refresh_token.`);
    }
    sendJson(response, 200, answer, { 'cache-control': 'no-store', pragma: 'no-cache' });
  }
}
