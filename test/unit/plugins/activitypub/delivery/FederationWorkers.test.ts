import { BadRequestHttpError } from '@solid/community-server';
import { refusedData } from '../../../../../src/plugins/activitypub/delivery/FederationWorkers';
import { InvalidTermError } from '../../../../../src/storage/SparqlTerms';
import { StoreUnavailableHttpError } from '../../../../../src/storage/StoreUnavailableHttpError';
import { badRequest, FedpodHttpError } from '../../../../../src/util/HttpErrors';

describe('refusedData', (): void => {
  it.each([
    [ 'JSON-LD the parser cannot read', badRequest('The body is not valid JSON-LD', 'invalid_jsonld') ],
    [ 'an IRI the SPARQL terms refuse', new InvalidTermError('Not a valid absolute IRI') ],
    [ 'CSS\'s bad request', new BadRequestHttpError('bad') ],
    [ 'the store refusing the data (what SparqlClient throws for its 400, 413, 414, 422)', new FedpodHttpError(400, 'bad_request', 'refused') ],
    [ 'a body too large', new FedpodHttpError(413, 'payload_too_large', 'too large') ],
  ])('is true for %s: no retry can succeed', (_label, error): void => {
    expect(refusedData(error)).toBe(true);
  });

  it.each([
    [ 'a store that is down', new StoreUnavailableHttpError('unavailable') ],
    [ 'a store that refuses the credentials (the operator can fix that)', new Error('The triple store refused the update with 401: unauthorized') ],
    [ 'a timeout', Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }) ],
    [ 'a server error', new FedpodHttpError(500, 'internal', 'oops') ],
    [ 'not an error at all', undefined ],
  ])('is false for %s: it is retried', (_label, error): void => {
    expect(refusedData(error)).toBe(false);
  });
});
