import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import type { VapidKeys } from '../../plugins/mastodon/VapidKeys';
import { applicationEntity } from '../../plugins/mastodon/OAuthRecords';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { readOAuthParams } from './OAuthParams';

/**
 * POST /api/v1/apps: registers an app (client_name, redirect_uris, scopes, website) and answers
 * Mastodon's Application entity with its client_id and client_secret, and the server's VAPID key
 * (`vapid_key`, which apps such as Elk subscribe to Web Push with) when it has one. Anyone may
 * register, as on Mastodon: an app can do nothing until a user authorizes it.
 */
export class MastodonAppsHandler extends JsonHttpHandler {
  /**
   * @param oauth - The registered apps.
   * @param vapid - The server's VAPID key pair, when it sends Web Push.
   */
  public constructor(private readonly oauth: MastodonOAuthService, private readonly vapid?: VapidKeys) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const params = await readOAuthParams(request, operation.target.query);
    const { app, clientSecret } = await this.oauth.register(params);
    const vapidKey = await this.vapid?.publicKey();
    sendJson(response, 200, { ...applicationEntity(app, clientSecret), ...vapidKey === undefined ? {} : { vapid_key: vapidKey }},
      { 'cache-control': 'no-store' });
  }
}
