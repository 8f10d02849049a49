import { FedpodHttpError } from '../../util/HttpErrors';
import { grantsAny } from '../../plugins/mastodon/OAuthScopes';
import type { AccessPolicy } from '../access/AccessPolicy';
import type { Operation } from '../http/Operation';

/** What a route of the Mastodon client API declares. */
export interface MastodonScopeAccessOptions {
  /**
   * The scope the route needs, or several separated by spaces of which any one will do
   * (`profile read:accounts`). None: any token, of a user or of an app alone.
   */
  scope?: string;
  /** The policy that decides after the scope (LocalUserAccess, PublicAccess...); none: a token is needed. */
  policy?: AccessPolicy;
}

/** Mastodon's 401, which apps show. */
const invalidToken = (): FedpodHttpError => new FedpodHttpError(401, 'The access token is invalid',
  'This needs "Authorization: Bearer <token>" with the token of an app (or a Fedpod token).', { 'www-authenticate': 'Bearer' });

/**
 * The access policy of the Mastodon client API's routes: the OAuth token's scopes must grant the
 * route's scope (403 with Mastodon's text otherwise), then the inner policy decides. Fedpod and
 * Solid-OIDC tokens carry no scopes and may do whatever their user may. It is the only kind of
 * policy that takes OAuth tokens at all (acceptsScopedTokens): on every other route they are refused.
 */
export class MastodonScopeAccess implements AccessPolicy {
  public readonly acceptsScopedTokens = true;
  private readonly scopes: string[];
  private readonly policy?: AccessPolicy;

  public constructor(options: MastodonScopeAccessOptions = {}) {
    this.scopes = (options.scope ?? '').split(/\s+/u).filter((scope): boolean => scope.length > 0);
    this.policy = options.policy;
  }

  public async authorize(operation: Operation): Promise<void> {
    const agent = operation.agent;
    if (operation.method !== 'OPTIONS' && this.scopes.length > 0 && agent.scopes && !grantsAny(agent.scopes, this.scopes)) {
      throw new FedpodHttpError(403, 'This action is outside the authorized scopes',
        `This needs the scope ${this.scopes.join(' or ')}; the token has ${agent.scopes.join(' ') || 'none'}.`);
    }
    if (this.policy) {
      return this.policy.authorize(operation);
    }
    if (operation.method !== 'OPTIONS' && agent.username === undefined && agent.app === undefined) {
      throw invalidToken();
    }
  }
}
