import type { IncomingMessage } from 'node:http';

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

/** The agent the pipeline authenticated for this request (anonymous when none). */
export function agentOf(request: IncomingMessage): Agent {
  return agents.get(request) ?? ANONYMOUS;
}

export function setAgent(request: IncomingMessage, agent: Agent): void {
  agents.set(request, agent);
}

/** The IRI that identifies the agent to audience rules: its WebID, or the signing remote actor. */
export function agentIri(agent: Agent): string | undefined {
  return agent.webId ?? agent.remoteActor;
}
