import type { AudienceRules } from '../../plugins/activitypub/AudienceRules';
import { isValidIri } from '../../storage/SparqlTerms';
import { badRequest, notFound } from '../../util/HttpErrors';
import { agentIri } from '../http/Agent';
import { refusal } from './AccessErrors';
import type { AccessPolicy } from './AccessPolicy';
import type { Operation } from '../http/Operation';
import { WRITE_METHODS } from './AccessPolicy';

/**
 * Copies of other servers' objects and activities (`{base}remote?id=<iri>`): read by whoever the
 * audience rules let read them, or whose inbox they reached (AudienceRules.mayReadReceived); 404 to
 * anyone else, so that what was received is not revealed. Only other servers' ids (this server's own
 * are read at their URLs, under their own rules); nothing is written here.
 */
export class RemoteObjectAccess implements AccessPolicy {
  private readonly origin: string;

  public constructor(private readonly rules: AudienceRules, baseUrl: string) {
    this.origin = new URL(baseUrl).origin;
  }

  public async authorize(operation: Operation): Promise<void> {
    const { method, agent } = operation;
    if (method === 'OPTIONS') {
      return;
    }
    if (WRITE_METHODS.has(method)) {
      throw refusal(agent, 'Copies of other servers\' objects are read-only.');
    }
    const iri = operation.target.query.get('id');
    if (!iri || !/^https?:\/\//u.test(iri) || !isValidIri(iri)) {
      throw badRequest('Give the id of another server\'s object or activity: ?id=<https IRI>.', 'invalid_id');
    }
    if (new URL(iri).origin === this.origin) {
      throw badRequest(`${iri} is this server's own: read it at its URL.`, 'local_id');
    }
    const found = await this.rules.read(iri);
    const reader = agentIri(await operation.resolveAgent());
    if (!found || !await this.rules.mayReadReceived(iri, found.addressing, reader)) {
      throw notFound(`No copy of ${iri} that you may read.`);
    }
    operation.decide({ prefetched: { iri, stored: found.stored }});
  }
}
