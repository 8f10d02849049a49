/** An app registered with POST /api/v1/apps. */
export interface OAuthApp {
  /** The client_id, a random string. */
  clientId: string;
  /** SHA-256 of the client_secret (base64url): the secret itself is shown once, at registration. */
  secretHash: string;
  name: string;
  website?: string;
  redirectUris: string[];
  scopes: string[];
  created: string;
}

/** An authorization code waiting to be exchanged (kept under the hash of the code). */
export interface OAuthCode {
  clientId: string;
  username: string;
  webId: string;
  scopes: string[];
  redirectUri: string;
  /** PKCE S256 challenge, when the app sent one. */
  challenge?: string;
  /** ms since the epoch. */
  expires: number;
}

/** An access token (kept under the hash of the token). A user's, or the app's own (client_credentials). */
export interface OAuthToken {
  clientId: string;
  username?: string;
  webId?: string;
  scopes: string[];
  created: string;
  lastUsed: string;
  /** Hash of the refresh token issued with it, revoked with it. */
  refreshHash?: string;
}

/** A refresh token (kept under its hash): the access token it renews. */
export interface OAuthRefresh {
  clientId: string;
  tokenHash: string;
}

/** What a user sees of one app they authorized. */
export interface OAuthAuthorization {
  clientId: string;
  name: string;
  website?: string;
  scopes: string[];
  created: string;
  lastUsed: string;
}

/** The answer of POST /oauth/token. */
export interface OAuthTokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  scope: string;
  created_at: number;
  refresh_token?: string;
}

/** Mastodon's Application entity; with `client_id` and `client_secret` when just registered. */
export function applicationEntity(app: OAuthApp, clientSecret?: string): Record<string, unknown> {
  return {
    id: app.clientId,
    name: app.name,
    website: app.website ?? null,
    scopes: app.scopes,
    redirect_uri: app.redirectUris.join('\n'),
    redirect_uris: app.redirectUris,
    ...clientSecret === undefined ? {} : { client_id: app.clientId, client_secret: clientSecret, client_secret_expires_at: 0 },
  };
}
