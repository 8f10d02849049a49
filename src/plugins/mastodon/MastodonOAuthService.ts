import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { getLoggerFor } from '@solid/community-server';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import { FedpodHttpError } from '../../util/HttpErrors';
import { invalidClient, invalidGrant, oauthError } from './OAuthErrors';
import type { AccountStore } from '../accounts/AccountStore';
import { tokenStillValid } from '../accounts/CredentialChecks';
import type {
  OAuthApp, OAuthAuthorization, OAuthCode, OAuthRefresh, OAuthToken, OAuthTokenAnswer,
} from './OAuthRecords';
import { grants, parseScopes, UnknownScopeError } from './OAuthScopes';

/** The redirect URI of apps that show the code to the user instead of receiving it. */
export const OOB_REDIRECT = 'urn:ietf:wg:oauth:2.0:oob';

/** Schemes a redirect URI may never have: the browser would run or show them as this server's page. */
const FORBIDDEN_SCHEMES = new Set([ 'javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:' ]);

const CODE_LIFETIME_MS = 10 * 60_000;
/** A token's `lastUsed` is written at most this often: not a file write per request. */
const LAST_USED_STEP_MS = 60 * 60_000;
const MAX_NAME = 200;
const MAX_REDIRECT_URIS = 10;
const MAX_URI = 2000;

/** What POST /api/v1/apps takes. */
export interface AppRegistration {
  client_name?: unknown;
  redirect_uris?: unknown;
  scopes?: unknown;
  website?: unknown;
}

/** The agent of a valid token. */
export interface OAuthBearer {
  clientId: string;
  username?: string;
  webId?: string;
  scopes: string[];
}

/** Who an authorization code is for: the code's record but its expiry. */
export type CodeRequest = Omit<OAuthCode, 'expires'>;

/** The client credentials of a token request. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

const hash = (secret: string): string => createHash('sha256').update(secret).digest('base64url');
const secret = (): string => randomBytes(32).toString('base64url');

/**
 * OAuth 2 for Mastodon apps: registered apps, authorization codes, access and refresh tokens, each
 * a JSON file in the data directory (`mastodon/apps`, `mastodon/codes`, `mastodon/tokens`,
 * `mastodon/refresh`), so every node sharing it sees the same ones. Codes and tokens are opaque
 * random strings kept only as their SHA-256: the files do not hold anything a client could use.
 * Tokens are read from their file on every request (no cache), so a revoked token is refused at
 * once by every node; a code is used by deleting its file, which only one request can do.
 */
export class MastodonOAuthService {
  protected readonly logger = getLoggerFor(this);
  private readonly apps: FileKeyValueStorage<OAuthApp>;
  private readonly codes: FileKeyValueStorage<OAuthCode>;
  private readonly tokens: FileKeyValueStorage<OAuthToken>;
  private readonly refreshes: FileKeyValueStorage<OAuthRefresh>;

  /**
   * @param accounts - The accounts: a user's token issued before a password change, or of an account
   *   that is gone, is dropped when next presented.
   */
  public constructor(dataDir: string, private readonly accounts?: AccountStore) {
    this.apps = new FileKeyValueStorage(dataDir, 'mastodon/apps');
    this.codes = new FileKeyValueStorage(dataDir, 'mastodon/codes');
    this.tokens = new FileKeyValueStorage(dataDir, 'mastodon/tokens');
    this.refreshes = new FileKeyValueStorage(dataDir, 'mastodon/refresh');
  }

  /** Registers an app; its record and its secret (given only now). Invalid input: 422, as Mastodon answers. */
  public async register(input: AppRegistration): Promise<{ app: OAuthApp; clientSecret: string }> {
    const name = typeof input.client_name === 'string' ? input.client_name.trim() : '';
    if (name.length === 0 || name.length > MAX_NAME) {
      throw invalidApp(`client_name must be 1 to ${MAX_NAME} characters.`);
    }
    const redirectUris = redirectUrisOf(input.redirect_uris);
    let scopes: string[];
    try {
      scopes = parseScopes(typeof input.scopes === 'string' ? input.scopes : Array.isArray(input.scopes) ? input.scopes.join(' ') : undefined);
    } catch (error: unknown) {
      throw invalidApp((error as UnknownScopeError).message);
    }
    const website = typeof input.website === 'string' && /^https?:\/\/\S+$/iu.test(input.website) && input.website.length <= MAX_URI ?
      input.website :
      undefined;
    const clientSecret = secret();
    const app: OAuthApp = {
      clientId: secret(), secretHash: hash(clientSecret), name, redirectUris, scopes, created: new Date().toISOString(),
      ...website ? { website } : {},
    };
    await this.apps.set(app.clientId, app);
    return { app, clientSecret };
  }

  public async app(clientId: string): Promise<OAuthApp | undefined> {
    return clientId.length > 0 && clientId.length <= 100 ? this.apps.get(clientId) : undefined;
  }

  /** The app whose id and secret these are; 401 invalid_client otherwise. */
  public async authenticateClient({ clientId, clientSecret }: ClientCredentials): Promise<OAuthApp> {
    const app = await this.app(clientId);
    const expected = Buffer.from(app?.secretHash ?? hash('no such app'));
    const given = Buffer.from(hash(clientSecret));
    if (!app || !timingSafeEqual(expected, given)) {
      throw invalidClient();
    }
    return app;
  }

  /**
   * The scopes asked for (Mastodon's default, `read`, when none are), each of which must be
   * covered by the scopes the app registered; 400 invalid_scope otherwise.
   */
  public scopesFor(app: OAuthApp, asked: string | undefined): string[] {
    let scopes: string[];
    try {
      scopes = parseScopes(asked);
    } catch (error: unknown) {
      throw oauthError(400, 'invalid_scope', (error as UnknownScopeError).message);
    }
    const outside = scopes.filter((scope): boolean => !grants(app.scopes, scope));
    if (outside.length > 0) {
      throw oauthError(400, 'invalid_scope', `The app did not register the scope${outside.length > 1 ? 's' : ''} ${outside.join(', ')}.`);
    }
    return scopes;
  }

  /** A new authorization code, single-use, valid for ten minutes. */
  public async issueCode(request: CodeRequest): Promise<string> {
    const code = secret();
    await this.codes.set(hash(code), { ...request, expires: Date.now() + CODE_LIFETIME_MS });
    return code;
  }

  /** grant_type=authorization_code: the code's token, once; PKCE checked when the code has a challenge. */
  public async exchangeCode(client: ClientCredentials, code: string, redirectUri: string | undefined, verifier: string | undefined):
  Promise<OAuthTokenAnswer> {
    const app = await this.authenticateClient(client);
    const key = hash(code);
    const record = await this.codes.get(key);
    // Deleting is what uses the code: of two requests with it, one deletes the file, the other finds none.
    if (!record || !await this.codes.delete(key)) {
      throw invalidGrant('The authorization code is unknown or was already used.');
    }
    if (record.expires < Date.now()) {
      throw invalidGrant('The authorization code has expired.');
    }
    if (record.clientId !== app.clientId) {
      throw invalidGrant('The authorization code was issued to another app.');
    }
    if (redirectUri !== undefined && redirectUri !== record.redirectUri) {
      throw invalidGrant('redirect_uri is not the one the code was issued for.');
    }
    if (record.challenge !== undefined &&
      (verifier === undefined || !equalText(hash(verifier), record.challenge))) {
      throw invalidGrant('The code_verifier does not match the code_challenge (PKCE S256).');
    }
    return this.issueToken({ clientId: app.clientId, username: record.username, webId: record.webId, scopes: record.scopes }, true);
  }

  /** grant_type=client_credentials: a token of the app itself, acting for no user. */
  public async clientToken(client: ClientCredentials, scope: string | undefined): Promise<OAuthTokenAnswer> {
    const app = await this.authenticateClient(client);
    return this.issueToken({ clientId: app.clientId, scopes: this.scopesFor(app, scope) }, false);
  }

  /** grant_type=refresh_token: a new access and refresh token; the old ones are revoked. */
  public async refresh(client: ClientCredentials, refreshToken: string, scope: string | undefined): Promise<OAuthTokenAnswer> {
    const app = await this.authenticateClient(client);
    const key = hash(refreshToken);
    const record = await this.refreshes.get(key);
    if (!record || record.clientId !== app.clientId) {
      throw invalidGrant('The refresh token is unknown, revoked or not this app\'s.');
    }
    const old = await this.tokens.get(record.tokenHash);
    if (!old?.username || !old.webId) {
      throw invalidGrant('The refresh token is unknown, revoked or not this app\'s.');
    }
    let scopes = old.scopes;
    if (scope !== undefined && scope.trim().length > 0) {
      scopes = this.scopesFor(app, scope);
      const wider = scopes.filter((asked): boolean => !grants(old.scopes, asked));
      if (wider.length > 0) {
        throw oauthError(400, 'invalid_scope', `A refresh cannot widen the scopes: ${wider.join(', ')}.`);
      }
    }
    // Checked first, then used: deleting the file is what uses it, so of two refreshes one wins.
    if (!await this.refreshes.delete(key)) {
      throw invalidGrant('The refresh token is unknown, revoked or not this app\'s.');
    }
    await this.tokens.delete(record.tokenHash);
    return this.issueToken({ clientId: app.clientId, username: old.username, webId: old.webId, scopes }, true);
  }

  /**
   * Revokes an access or refresh token of this app (with its pair); a token of another app or an
   * unknown one is left alone without saying so, as RFC 7009 answers.
   */
  public async revoke(client: ClientCredentials, token: string): Promise<void> {
    const app = await this.authenticateClient(client);
    const key = hash(token);
    const access = await this.tokens.get(key);
    if (access?.clientId === app.clientId) {
      await this.dropToken(key, access);
      return;
    }
    const refresh = await this.refreshes.get(key);
    if (refresh?.clientId === app.clientId) {
      await this.refreshes.delete(key);
      const paired = await this.tokens.get(refresh.tokenHash);
      if (paired) {
        await this.dropToken(refresh.tokenHash, paired);
      }
    }
  }

  /** The token's agent, or undefined for a token that is unknown or revoked. */
  public async bearer(token: string): Promise<OAuthBearer | undefined> {
    const key = hash(token);
    const record = await this.liveToken(key);
    if (!record) {
      return undefined;
    }
    const now = Date.now();
    if (now - Date.parse(record.lastUsed) > LAST_USED_STEP_MS) {
      // Written in the background: a failure here must not refuse the request.
      this.tokens.set(key, { ...record, lastUsed: new Date(now).toISOString() }).catch((error: unknown): void => {
        this.logger.warn(`Could not record the use of a token: ${String(error)}`);
      });
    }
    return bearerOf(record);
  }

  /**
   * The token's agent, as bearer() answers, without counting a use: for work the server does on
   * the token's behalf (a Web Push sent to its app), which the user did not do.
   */
  public async holder(token: string): Promise<OAuthBearer | undefined> {
    const record = await this.liveToken(hash(token));
    return record ? bearerOf(record) : undefined;
  }

  /** The apps the user authorized, one entry per app (over all its tokens), oldest first. */
  public async authorizations(username: string): Promise<OAuthAuthorization[]> {
    const byApp = new Map<string, OAuthAuthorization>();
    for await (const [ , token ] of this.tokens.entries()) {
      if (token.username !== username) {
        continue;
      }
      const known = byApp.get(token.clientId);
      if (known) {
        // Sorted: the files are read in no particular order.
        known.scopes = [ ...new Set([ ...known.scopes, ...token.scopes ]) ].sort();
        known.created = known.created < token.created ? known.created : token.created;
        known.lastUsed = known.lastUsed > token.lastUsed ? known.lastUsed : token.lastUsed;
        continue;
      }
      const app = await this.apps.get(token.clientId);
      byApp.set(token.clientId, {
        clientId: token.clientId, name: app?.name ?? 'an app no longer registered', scopes: [ ...token.scopes ].sort(),
        created: token.created, lastUsed: token.lastUsed, ...app?.website ? { website: app.website } : {},
      });
    }
    return [ ...byApp.values() ].sort((left, right): number => left.created.localeCompare(right.created));
  }

  /** Revokes every token the user gave the app; whether there was one. */
  public async revokeAuthorization(username: string, clientId: string): Promise<boolean> {
    let found = false;
    for await (const [ key, token ] of this.tokens.entries()) {
      if (token.username === username && token.clientId === clientId) {
        await this.dropToken(key, token);
        found = true;
      }
    }
    return found;
  }

  private async issueToken(grant: Pick<OAuthToken, 'clientId' | 'username' | 'webId' | 'scopes'>, withRefresh: boolean):
  Promise<OAuthTokenAnswer> {
    const accessToken = secret();
    const refreshToken = withRefresh ? secret() : undefined;
    const now = new Date();
    const key = hash(accessToken);
    const record: OAuthToken = {
      clientId: grant.clientId, scopes: grant.scopes, created: now.toISOString(), lastUsed: now.toISOString(),
      ...grant.username && grant.webId ? { username: grant.username, webId: grant.webId } : {},
      ...refreshToken ? { refreshHash: hash(refreshToken) } : {},
    };
    if (refreshToken) {
      await this.refreshes.set(hash(refreshToken), { clientId: grant.clientId, tokenHash: key });
    }
    await this.tokens.set(key, record);
    return {
      access_token: accessToken, token_type: 'Bearer', scope: grant.scopes.join(' '), created_at: Math.floor(now.getTime() / 1000),
      ...refreshToken ? { refresh_token: refreshToken } : {},
    };
  }

  /** The token's record, unless it is unknown, or was issued before a password change or to an account now gone (then dropped). */
  private async liveToken(key: string): Promise<OAuthToken | undefined> {
    const record = await this.tokens.get(key);
    if (record?.username && this.accounts &&
      !tokenStillValid(await this.accounts.findByUsername(record.username), Date.parse(record.created), record.webId)) {
      await this.dropToken(key, record);
      return undefined;
    }
    return record;
  }

  private async dropToken(key: string, token: OAuthToken): Promise<void> {
    // The access token first: it is what requests use, so it is dead before anything else happens.
    await this.tokens.delete(key);
    if (token.refreshHash) {
      await this.refreshes.delete(token.refreshHash);
    }
  }
}

function bearerOf(record: OAuthToken): OAuthBearer {
  return {
    clientId: record.clientId, scopes: record.scopes,
    ...record.username && record.webId ? { username: record.username, webId: record.webId } : {},
  };
}

/** Mastodon's answer to an invalid app: 422 with the reason. */
function invalidApp(reason: string): FedpodHttpError {
  return new FedpodHttpError(422, `Validation failed: ${reason}`, reason);
}

/** The redirect URIs of a registration: one or several (space or newline separated, or an array). */
function redirectUrisOf(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(/\s+/u) : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  const uris = [ ...new Set(list.map((uri): string => uri.trim()).filter((uri): boolean => uri.length > 0)) ];
  if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    throw invalidApp(`redirect_uris must hold 1 to ${MAX_REDIRECT_URIS} URIs.`);
  }
  for (const uri of uris) {
    if (uri !== OOB_REDIRECT && !isRedirectUri(uri)) {
      throw invalidApp(`Redirect URI ${uri.slice(0, 100)} is not an absolute URI this server may send a browser to.`);
    }
  }
  return uris;
}

/** An absolute URI without a fragment: https, http (local apps) or an app's own scheme (`myapp://callback`). */
function isRedirectUri(uri: string): boolean {
  if (uri.length > MAX_URI || /\s/u.test(uri)) {
    return false;
  }
  try {
    const url = new URL(uri);
    return !FORBIDDEN_SCHEMES.has(url.protocol) && url.hash === '' && !uri.includes('#');
  } catch {
    return false;
  }
}

function equalText(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}
