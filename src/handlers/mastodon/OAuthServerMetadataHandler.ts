import { KNOWN_SCOPES } from '../../plugins/mastodon/OAuthScopes';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

/**
 * GET /.well-known/oauth-authorization-server (RFC 8414): where apps register, send the person to log
 * in and get tokens, with the scopes, grants and PKCE method taken. Mastodon 4.3 serves it, and newer
 * apps read it before falling back to the fixed Mastodon paths. Solid-OIDC clients read the identity
 * provider's `/.well-known/openid-configuration` instead, which this does not change.
 */
export class OAuthServerMetadataHandler extends JsonHttpHandler {
  private readonly metadata: Record<string, unknown>;

  public constructor(baseUrl: string) {
    super();
    const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.metadata = {
      issuer: base,
      authorization_endpoint: `${base}oauth/authorize`,
      token_endpoint: `${base}oauth/token`,
      revocation_endpoint: `${base}oauth/revoke`,
      app_registration_endpoint: `${base}api/v1/apps`,
      scopes_supported: [ ...KNOWN_SCOPES ],
      response_types_supported: [ 'code' ],
      response_modes_supported: [ 'query' ],
      grant_types_supported: [ 'authorization_code', 'client_credentials', 'refresh_token' ],
      token_endpoint_auth_methods_supported: [ 'client_secret_basic', 'client_secret_post' ],
      code_challenge_methods_supported: [ 'S256' ],
    };
  }

  protected async serve({ request, response }: OperationInput): Promise<void> {
    request.resume();
    sendJson(response, 200, this.metadata, { 'cache-control': 'public, max-age=3600' });
  }
}
