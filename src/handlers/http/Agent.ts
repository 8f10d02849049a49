import type { ActorUrls } from '../../plugins/activitypub/ActorUrls';

/**
 * Who is making a request, as the pipeline's authentication step found out: a local user (Fedpod
 * token), a WebID logged in with Solid-OIDC, a remote actor that signed the request, or nobody.
 */
export interface Agent {
  /** The WebID of a local account or of a Solid-OIDC login. */
  webId?: string;
  /** The local account's username, when the WebID is one of this server's actors. */
  username?: string;
  /** A remote ActivityPub actor proven by an HTTP-signed request. */
  remoteActor?: string;
  /**
   * The scopes of an OAuth token of a Mastodon app; none for every other credential (a Fedpod or
   * Solid-OIDC token may do whatever its user may). Only routes whose policy takes scoped tokens
   * (AccessPolicy.acceptsScopedTokens) let such an agent in.
   */
  scopes?: readonly string[];
  /** The client id of the Mastodon app whose OAuth token this is (with no user for an app's own token). */
  app?: string;
}

export const ANONYMOUS: Agent = Object.freeze({});

/** The IRI that identifies the agent to audience rules: its WebID, or the signing remote actor. */
export function agentIri(agent: Agent): string | undefined {
  return agent.webId ?? agent.remoteActor;
}

/**
 * The agent a verified WebID is: a local actor's WebID is its user, since it names this server as its
 * OpenID issuer and so only this server's login can prove it.
 */
export function webIdAgent(actors: ActorUrls, webId: string): Agent {
  const username = actors.usernameOf(webId);
  return Object.freeze(username ? { webId, username } : { webId });
}
