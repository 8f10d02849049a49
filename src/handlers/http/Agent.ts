import type { IncomingMessage } from 'node:http';
import type { ActorUrls } from '../../plugins/activitypub/ActorDocument';

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
}

export const ANONYMOUS: Agent = Object.freeze({});

const agents = new WeakMap<IncomingMessage, Agent>();
const deferred = new WeakMap<IncomingMessage, () => Promise<Agent>>();
const resolving = new WeakMap<IncomingMessage, Promise<Agent>>();

/** The agent the pipeline authenticated for this request (anonymous when none). */
export function agentOf(request: IncomingMessage): Agent {
  return agents.get(request) ?? ANONYMOUS;
}

export function setAgent(request: IncomingMessage, agent: Agent): void {
  agents.set(request, agent);
}

/** Whether the pipeline authenticated this request (so its agent, even anonymous, is known). */
export function hasAgent(request: IncomingMessage): boolean {
  return agents.has(request);
}

/**
 * Registers a check of the request's credentials that is made only when asked (resolveAgent): a
 * remote actor's HTTP signature on a GET costs a fetch of its key, which a public document never
 * needs. (Checking every signed GET at once also lets two servers that sign the fetches of each
 * other's keys wait on each other without end.)
 */
export function deferAgent(request: IncomingMessage, check: () => Promise<Agent>): void {
  deferred.set(request, check);
}

/**
 * The request's agent with its deferred credentials checked (once per request); rejects with a 401
 * when they are invalid. Asked only where the answer depends on who is reading.
 */
export async function resolveAgent(request: IncomingMessage): Promise<Agent> {
  const check = deferred.get(request);
  if (!check) {
    return agentOf(request);
  }
  let pending = resolving.get(request);
  if (!pending) {
    pending = check().then((agent): Agent => {
      agents.set(request, agent);
      return agent;
    });
    resolving.set(request, pending);
  }
  return pending;
}

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
