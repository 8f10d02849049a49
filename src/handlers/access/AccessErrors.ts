import type { FedpodHttpError } from '../../util/HttpErrors';
import { forbidden, unauthorized } from '../../util/HttpErrors';
import type { Agent } from '../http/Agent';

/** 401 for an anonymous agent (logging in may help), 403 for a known one. */
export function refusal(agent: Agent, message: string): FedpodHttpError {
  return agent.webId === undefined && agent.remoteActor === undefined ?
    unauthorized(`${message} Send credentials: "Authorization: Bearer <token>".`, 'authentication_required') :
    forbidden(message, 'forbidden');
}
