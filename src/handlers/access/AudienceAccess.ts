import type { Addressing, AudienceRules } from '../../plugins/activitypub/AudienceRules';
import { forbidden, notFound } from '../../util/HttpErrors';
import { agentIri } from '../http/Agent';
import { refusal } from './AccessErrors';
import type { AccessPolicy } from './AccessPolicy';
import type { Operation } from '../http/Operation';
import { WRITE_METHODS } from './AccessPolicy';

/**
 * ActivityPub objects and activities (`/objects/<id>`, `/activities/<id>`): a read is allowed by the
 * audience rules (AudienceRules), else 404 so that existence is not revealed; a write (an LDP PUT or
 * DELETE, turned into an Update or Delete by the route's handler) only by the author: 401
 * anonymous, 404 to whoever may not read it, 403 to a reader who is not the author.
 */
export class AudienceAccess implements AccessPolicy {
  public constructor(private readonly rules: AudienceRules) {}

  public async authorize(operation: Operation): Promise<void> {
    const { method, agent } = operation;
    const target = this.targetOf(operation);
    if (method === 'OPTIONS') {
      return;
    }
    const reader = agentIri(agent);
    const write = WRITE_METHODS.has(method);
    if (write && reader === undefined) {
      throw refusal(agent, 'Only the author changes or deletes an object.');
    }
    const found = await this.rules.read(target);
    if (!found) {
      // Nothing stored: the handler answers 404 (or 410 for what was deleted).
      return;
    }
    const { stored, addressing } = found;
    if (!await this.rules.mayRead(addressing, reader) && (write || !await this.readableBySigner(operation, addressing))) {
      throw notFound(`Nothing at ${target}`);
    }
    if (write && (agent.webId === undefined || !addressing.owners.includes(agent.webId))) {
      throw forbidden('Only the author changes or deletes an object.', 'not_owner');
    }
    operation.decide({ prefetched: { iri: target, stored }});
  }

  /** The object or activity whose audience decides. */
  protected targetOf(operation: Operation): string {
    return operation.target.iri;
  }

  /** Whether a read is allowed once the request's deferred credentials (a signed GET) are checked. */
  private async readableBySigner(operation: Operation, addressing: Addressing): Promise<boolean> {
    const agent = operation.agent;
    const resolved = await operation.resolveAgent();
    return resolved !== agent && this.rules.mayRead(addressing, agentIri(resolved));
  }
}
