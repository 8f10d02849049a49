import { AcceptNegotiator } from '../../../../src/storage/embedded/AcceptNegotiator';
import { GRAPH_RESULT_OFFERS, RESULTS_OFFERS } from '../../../../src/storage/embedded/SparqlMediaTypes';

describe('AcceptNegotiator', (): void => {
  const results = new AcceptNegotiator(RESULTS_OFFERS);
  const graphs = new AcceptNegotiator(GRAPH_RESULT_OFFERS);

  it.each([
    [ undefined, 'application/sparql-results+json' ],
    [ '*/*', 'application/sparql-results+json' ],
    [ 'application/sparql-results+json;q=1.0,application/sparql-results+xml;q=0.7', 'application/sparql-results+json' ],
    [ 'application/sparql-results+json;q=0.5,application/sparql-results+xml', 'application/sparql-results+xml' ],
    [ 'text/csv', 'text/csv' ],
    [ 'text/*;q=0.9, text/tab-separated-values', 'text/tab-separated-values' ],
    [ 'application/json', 'application/sparql-results+json' ],
    [ 'text/turtle', 'application/sparql-results+json' ],
    [ 'text/csv;q=0, */*;q=0.1', 'application/sparql-results+json' ],
  ])('chooses a results format for Accept %p', (accept, expected): void => {
    expect(results.choose(accept)).toBe(expected);
  });

  it.each([
    [ 'text/turtle', 'text/turtle' ],
    [ 'application/n-triples, text/turtle;q=0.9', 'application/n-triples' ],
    [ 'text/turtle;q=0.2, application/n-quads;q=0.8', 'application/n-quads' ],
    [ '*/*', 'application/n-triples' ],
    [ 'application/sparql-results+json', 'application/n-triples' ],
    [ 'text/*;q=0.3, */*;q=0.1', 'text/turtle' ],
  ])('chooses a graph format for Accept %p', (accept, expected): void => {
    expect(graphs.choose(accept)).toBe(expected);
  });

  it('gives the same answer from its cache', (): void => {
    const accept = 'application/sparql-results+xml;q=0.9, text/csv;q=0.1';
    expect(results.choose(accept)).toBe('application/sparql-results+xml');
    expect(results.choose(accept)).toBe('application/sparql-results+xml');
  });
});
