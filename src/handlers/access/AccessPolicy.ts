import type { Operation } from '../http/Operation';

/**
 * The authorization step a route declares. `authorize` resolves when the request may reach the
 * route's handler and throws a FedpodHttpError otherwise: 401 when the agent is anonymous and
 * credentials would help, 403 when the agent is known and not allowed, 404 where a resource's
 * existence must not be revealed. It records what the handler needs of its decision in the
 * operation (Operation.decide: answer headers, a resource it read). Policies never read the body.
 */
export interface AccessPolicy {
  authorize: (operation: Operation) => Promise<void>;
  /**
   * True for a policy that checks the scopes of an OAuth token (MastodonScopeAccess). Any other
   * route refuses such a token (401), so an app's token never reaches what it was not given.
   */
  readonly acceptsScopedTokens?: boolean;
}

/** The methods that change something; any other method reaches the handler, which refuses what it does not know (405). */
export const WRITE_METHODS = new Set([ 'POST', 'PUT', 'PATCH', 'DELETE' ]);

/** `WAC-Allow` for the modes the requester and the public have. */
export function wacAllow(user: readonly string[], everyone: readonly string[]): string {
  return `user="${user.join(' ')}",public="${everyone.join(' ')}"`;
}
