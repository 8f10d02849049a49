import type { CredentialsExtractor, HttpRequest } from '@solid/community-server';
import type { TokenClaims, TokenService } from '../../plugins/accounts/TokenService';
import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { RemoteActorCache } from '../../plugins/activitypub/fetch/RemoteActorCache';
import type { HttpSignatureVerifier } from '../../plugins/activitypub/signatures/HttpSignatureVerifier';
import type { AccountModerations } from '../../plugins/moderation/AccountModerations';
import type { DomainPolicy } from '../../plugins/outbound/DomainPolicy';
import { FedpodHttpError, unauthorized } from '../../util/HttpErrors';
import { SolidTokenCache } from '../auth/SolidTokenCache';
import type { Agent } from '../http/Agent';
import { ANONYMOUS, webIdAgent } from '../http/Agent';
import { messageOf } from '../../util/Errors';
import type { Operation } from '../http/Operation';

interface CachedToken {
  agent: Agent;
  claims: TokenClaims;
  /** Expiry of the token, in ms since the epoch. */
  expires: number;
}

/**
 * The authentication step of every request: reads who is calling, once, before any handler.
 * - no `Authorization` and no signature: anonymous, with no work at all;
 * - `Authorization: Bearer <Fedpod token>`: verified by the TokenService, the result kept until the
 *   token expires (an ES256 verification costs more than the rest of a small GET);
 * - `Authorization: Bearer <OAuth token of a Mastodon app>` (opaque, no dots, unlike the JWTs of the
 *   other kinds), in setups with the Mastodon client API: looked up on every request, so a revoked
 *   token is refused at once; the agent carries the token's scopes (see AccessPolicy.acceptsScopedTokens);
 * - any other `Authorization` (Solid-OIDC `DPoP`, or `Bearer`, from this server's OpenID provider or
 *   another): CSS's credentials extractor the first time, which verifies the token and its DPoP proof,
 *   and that the WebID names the token's issuer; then the token is kept until it expires and each
 *   request's proof is checked on its own (SolidTokenCache); a local actor's WebID is its user;
 * - a `Signature` or `Signature-Input` on a GET or HEAD: a remote actor's signed fetch (Mastodon's
 *   authorized fetch), verified with the actor's published key only when the answer depends on who
 *   reads (Operation.resolveAgent): a public document is served without fetching a key. Signed POSTs (inbox
 *   deliveries) are verified by their handler, which needs the body for the digest.
 * A credential that is present but invalid is a 401: it is never silently treated as anonymous (an
 * `Authorization` header with a scheme and no token holds no credential).
 * A signed request (any method) whose key is on a suspended domain (`domains`) is refused with 403
 * first, before its body is read or its key fetched: a blocked server costs one header parse; so is
 * one whose key is a suspended remote account's (`accounts`). A local account that is suspended or
 * disabled has every credential refused (401 `account_suspended`), whatever its kind, at once on every
 * node (AccountModerations reads the shared change counter).
 */
export class Authenticator {
  private readonly tokenCache = new Map<string, CachedToken>();
  /** Solid-OIDC tokens verified once; each later request's DPoP proof is still checked. */
  private readonly solidTokens = new SolidTokenCache();
  private readonly origin: string;
  private readonly actorUrls: ActorUrls;

  /**
   * @param baseUrl - Public base URL (signed URLs are checked against it).
   * @param tokens - Fedpod's token service, when the setup has accounts.
   * @param solidCredentials - CSS's credentials extractor for Solid-OIDC tokens.
   * @param verifier - HTTP signature verifier, when the setup federates.
   * @param actors - Remote actors' keys, for signed GETs.
   * @param cachedTokens - How many verified tokens are kept.
   * @param oauth - The OAuth tokens of Mastodon apps, when the setup has the Mastodon client API.
   * @param domains - The domains whose signed requests are refused (the operator's suspensions).
   * @param accounts - The operator's measures on accounts: suspended ones are refused.
   */
  public constructor(
    baseUrl: string,
    private readonly tokens?: TokenService,
    private readonly solidCredentials?: CredentialsExtractor,
    private readonly verifier?: HttpSignatureVerifier,
    private readonly actors?: RemoteActorCache,
    private readonly cachedTokens = 10_000,
    private readonly oauth?: MastodonOAuthService,
    private readonly domains?: DomainPolicy,
    private readonly accounts?: AccountModerations,
  ) {
    this.origin = new URL(baseUrl).origin;
    this.actorUrls = new ActorUrls(baseUrl);
  }

  /** The operation's agent; a signed GET's check is deferred to the operation (Operation.deferAgent). */
  public async authenticate(operation: Operation): Promise<Agent> {
    const request = operation.request;
    const headers = request.headers;
    if ((this.domains ?? this.accounts) && (headers.signature !== undefined || headers['signature-input'] !== undefined)) {
      await this.refuseSuspended(headers.signature ?? headers['signature-input']);
    }
    const authorization = headers.authorization;
    // A scheme without a token (`Authorization: DPoP `, as some Solid client libraries send when
    // logged out) carries no credential: the request is anonymous, as CSS takes it.
    if (authorization !== undefined && !/^\s*[\w-]*\s*$/u.test(authorization)) {
      const agent = await this.fromAuthorization(operation, authorization);
      if (agent.username && await this.accounts?.isLocked(this.actorUrls.actor(agent.username))) {
        throw unauthorized('This account is suspended.', 'account_suspended');
      }
      return agent;
    }
    if ((headers.signature !== undefined || headers['signature-input'] !== undefined) &&
      (request.method === 'GET' || request.method === 'HEAD')) {
      // What the signature covers is the target as sent, not its canonical spelling.
      const target = operation.target.sent;
      operation.deferAgent(async(): Promise<Agent> => this.fromSignature(request, target));
    }
    return ANONYMOUS;
  }

  /**
   * 403 when the signature's key is on a suspended domain, or is a suspended account's (its keyId, as
   * draft-cavage and RFC 9421 both name it; the key's actor is its IRI without the fragment).
   */
  private async refuseSuspended(header: string | string[] | undefined): Promise<void> {
    const keyId = /keyid="([^"]{1,2048})"/iu.exec(Array.isArray(header) ? header.join(',') : header ?? '')?.[1];
    let host: string | undefined;
    try {
      host = keyId ? new URL(keyId).hostname.replace(/^\[|\]$/gu, '') : undefined;
    } catch {
      // Not a URL: the verifier refuses it later.
    }
    if (host && await this.domains?.refuses(host)) {
      throw new FedpodHttpError(403, 'domain_blocked', 'This server does not federate with yours.');
    }
    if (host && keyId && await this.accounts?.isSuspended(keyId.replace(/#.*$/u, ''))) {
      throw new FedpodHttpError(403, 'account_suspended', 'This account is suspended here.');
    }
  }

  private async fromAuthorization(operation: Operation, authorization: string): Promise<Agent> {
    const request = operation.request;
    const match = /^(Bearer|DPoP)\s+(\S+)\s*$/iu.exec(authorization);
    if (match?.[1].toLowerCase() === 'bearer' && this.tokens?.isOwnToken(match[2])) {
      return this.fromFedpodToken(match[2]);
    }
    if (match?.[1].toLowerCase() === 'bearer' && this.oauth && !match[2].includes('.')) {
      return this.fromOAuthToken(match[2]);
    }
    if (!this.solidCredentials) {
      throw unauthorized('Send the token as "Authorization: Bearer <token>".', 'invalid_token');
    }
    const scheme = match?.[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
    const proof = typeof request.headers.dpop === 'string' ? request.headers.dpop : undefined;
    const known = match && this.solidTokens.get(scheme, match[2]);
    if (known) {
      if (known.scheme === 'DPoP') {
        try {
          await this.solidTokens.checkProof(known, match[2], proof, request.method ?? 'GET', `${operation.target.iri}${operation.target.search}`);
        } catch (error: unknown) {
          throw unauthorized(`The access token is not valid: ${messageOf(error)}`, 'invalid_token');
        }
      }
      return webIdAgent(this.actorUrls, known.webId);
    }
    try {
      const credentials = await this.solidCredentials.handleSafe(request);
      const webId = credentials.agent?.webId;
      if (webId) {
        if (match) {
          this.solidTokens.remember(scheme, match[2], webId, proof);
        }
        return webIdAgent(this.actorUrls, webId);
      }
    } catch (error: unknown) {
      throw unauthorized(`The access token is not valid: ${messageOf(error)}`, 'invalid_token');
    }
    throw unauthorized('The Authorization header holds no credentials this server accepts.', 'invalid_token');
  }

  private async fromFedpodToken(token: string): Promise<Agent> {
    const cached = this.tokenCache.get(token);
    if (cached && cached.expires > Date.now()) {
      // Its signature need not be checked again; whether the account revoked it must.
      if (await this.tokens!.current(cached.claims)) {
        return cached.agent;
      }
      this.tokenCache.delete(token);
      throw unauthorized('The token was revoked (a password change, or the account is gone): log in again.', 'token_revoked');
    }
    this.tokenCache.delete(token);
    const claims = await this.tokens!.verify(token);
    const agent: Agent = Object.freeze({ webId: claims.webId, username: claims.username });
    if (this.tokenCache.size >= this.cachedTokens) {
      // Oldest first: a Map iterates in insertion order.
      this.tokenCache.delete(this.tokenCache.keys().next().value!);
    }
    this.tokenCache.set(token, { agent, claims, expires: expiryOf(token) });
    return agent;
  }

  private async fromOAuthToken(token: string): Promise<Agent> {
    const bearer = await this.oauth!.bearer(token);
    if (!bearer) {
      // Mastodon's words, which apps show.
      throw new FedpodHttpError(401, 'The access token is invalid', 'The access token is unknown or was revoked.',
        { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
    return Object.freeze({
      ...bearer.username && bearer.webId ? { username: bearer.username, webId: bearer.webId } : {},
      scopes: Object.freeze([ ...bearer.scopes ]), app: bearer.clientId,
    });
  }

  private async fromSignature(request: HttpRequest, target: string): Promise<Agent> {
    if (!this.verifier || !this.actors) {
      throw new FedpodHttpError(401, 'invalid_signature', 'This server does not accept signed requests here.');
    }
    const actors = this.actors;
    const verified = await this.verifier.verify(
      { method: request.method!, url: `${this.origin}${target}`, headers: request.headers },
      async(keyId, options): Promise<{ publicKey: import('node:crypto').KeyObject; owner: string }> =>
        actors.getKey(keyId, options),
    );
    if (!verified.ok) {
      throw new FedpodHttpError(401, 'invalid_signature', `The HTTP signature is not valid: ${verified.reason}.`);
    }
    return { remoteActor: verified.owner };
  }
}

/** The `exp` of a JWT already verified, in ms (0 when absent, which keeps nothing). */
function expiryOf(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}
