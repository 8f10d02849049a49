import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Agent } from '../http/Agent';

/** What an access policy decides on: the request, its authenticated agent and the route's path parameters. */
export interface AccessRequest {
  request: IncomingMessage;
  /** For policies that act once the answer is known (recording who created what). */
  response: ServerResponse;
  /** The request's method, upper case (HEAD as asked). */
  method: string;
  /** The absolute IRI the request addresses: base URL origin + path, without the query. */
  target: string;
  agent: Agent;
  /** Values of the route template's parameters (`:user` → `params.user`). */
  params: Readonly<Record<string, string | undefined>>;
}

/**
 * The authorization step a route declares. `authorize` resolves when the request may reach the
 * route's handler and throws a FedpodHttpError otherwise: 401 when the agent is anonymous and
 * credentials would help, 403 when the agent is known and not allowed, 404 where a resource's
 * existence must not be revealed. Policies never read the body.
 */
export interface AccessPolicy {
  authorize: (input: AccessRequest) => Promise<void>;
}

/** The methods that change something; any other method reaches the handler, which refuses what it does not know (405). */
export const WRITE_METHODS = new Set([ 'POST', 'PUT', 'PATCH', 'DELETE' ]);
