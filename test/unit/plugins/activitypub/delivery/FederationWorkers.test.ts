import { BadRequestHttpError } from '@solid/community-server';
import { refusedData } from '../../../../../src/plugins/activitypub/delivery/FederationWorkers';
import { InvalidTermError } from '../../../../../src/storage/SparqlTerms';
import { SparqlEndpointError } from '../../../../../src/storage/SparqlClient';
import { badRequest, FedpodHttpError } from '../../../../../src/util/HttpErrors';

describe('refusedData', (): void => {
  it.each([
    [ 'JSON-LD the parser cannot read', badRequest('The body is not valid JSON-LD', 'invalid_jsonld') ],
    [ 'an IRI the SPARQL terms refuse', new InvalidTermError('Not a valid absolute IRI') ],
    [ 'CSS\'s bad request', new BadRequestHttpError('bad') ],
    [ 'the store refusing an update', new SparqlEndpointError('parse error', 400) ],
    [ 'the store refusing a body too large', new SparqlEndpointError('too large', 413) ],
  ])('is true for %s: no retry can succeed', (_label, error): void => {
    expect(refusedData(error)).toBe(true);
  });

  it.each([
    [ 'a store that is down', new SparqlEndpointError('unavailable', 503) ],
    [ 'a store that refuses the credentials (the operator can fix that)', new SparqlEndpointError('unauthorized', 401) ],
    [ 'a timeout', Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }) ],
    [ 'a server error', new FedpodHttpError(500, 'internal', 'oops') ],
    [ 'not an error at all', undefined ],
  ])('is false for %s: it is retried', (_label, error): void => {
    expect(refusedData(error)).toBe(false);
  });
});
