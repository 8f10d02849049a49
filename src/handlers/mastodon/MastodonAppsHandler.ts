import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import { applicationEntity } from '../../plugins/mastodon/OAuthRecords';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { readOAuthParams } from './OAuthParams';

/**
 * POST /api/v1/apps: registers an app (client_name, redirect_uris, scopes, website) and answers
 * Mastodon's Application entity with its client_id and client_secret (no `vapid_key`: this server
 * sends no Web Push). Anyone may register, as on Mastodon: an app can do nothing until a user
 * authorizes it.
 */
export class MastodonAppsHandler extends JsonHttpHandler {
  public constructor(private readonly oauth: MastodonOAuthService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const params = await readOAuthParams(request, operation.target.query);
    const { app, clientSecret } = await this.oauth.register(params);
    sendJson(response, 200, applicationEntity(app, clientSecret), { 'cache-control': 'no-store' });
  }
}
