import type { MediaTypeOffer } from './AcceptNegotiator';

/** Media types of the SPARQL protocol and what the embedded store can read and write. */

export const SPARQL_QUERY = 'application/sparql-query';
export const SPARQL_UPDATE = 'application/sparql-update';
export const FORM = 'application/x-www-form-urlencoded';

/** SELECT / ASK results; JSON first because it is the default. */
export const RESULTS_OFFERS: readonly MediaTypeOffer[] = [
  { produces: 'application/sparql-results+json', answersTo: [ 'application/sparql-results+json', 'application/json' ]},
  { produces: 'application/sparql-results+xml', answersTo: [ 'application/sparql-results+xml', 'application/xml', 'text/xml' ]},
  { produces: 'text/csv', answersTo: [ 'text/csv' ]},
  { produces: 'text/tab-separated-values', answersTo: [ 'text/tab-separated-values' ]},
];

/** CONSTRUCT / DESCRIBE results; N-Triples first because it is the default. */
export const GRAPH_RESULT_OFFERS: readonly MediaTypeOffer[] = [
  { produces: 'application/n-triples', answersTo: [ 'application/n-triples' ]},
  { produces: 'text/turtle', answersTo: [ 'text/turtle', 'application/x-turtle' ]},
  { produces: 'application/n-quads', answersTo: [ 'application/n-quads' ]},
  { produces: 'application/ld+json', answersTo: [ 'application/ld+json' ]},
  { produces: 'application/rdf+xml', answersTo: [ 'application/rdf+xml' ]},
];

/** Graph Store Protocol GET of one graph; Turtle first as in Fuseki. */
export const GRAPH_OFFERS: readonly MediaTypeOffer[] = [
  { produces: 'text/turtle', answersTo: [ 'text/turtle', 'application/x-turtle' ]},
  { produces: 'application/n-triples', answersTo: [ 'application/n-triples' ]},
  { produces: 'application/ld+json', answersTo: [ 'application/ld+json' ]},
  { produces: 'application/rdf+xml', answersTo: [ 'application/rdf+xml' ]},
];

/** Graph Store Protocol GET of the whole dataset. */
export const DATASET_OFFERS: readonly MediaTypeOffer[] = [
  { produces: 'application/n-quads', answersTo: [ 'application/n-quads' ]},
  { produces: 'application/trig', answersTo: [ 'application/trig' ]},
];

/** Request body types accepted for Graph Store writes, and whether they carry quads. */
export const RDF_INPUT_FORMATS: ReadonlyMap<string, { readonly format: string; readonly quads: boolean }> = new Map([
  [ 'text/turtle', { format: 'text/turtle', quads: false }],
  [ 'application/x-turtle', { format: 'text/turtle', quads: false }],
  [ 'application/n-triples', { format: 'application/n-triples', quads: false }],
  [ 'text/n3', { format: 'text/n3', quads: false }],
  [ 'application/rdf+xml', { format: 'application/rdf+xml', quads: false }],
  [ 'application/ld+json', { format: 'application/ld+json', quads: false }],
  [ 'application/n-quads', { format: 'application/n-quads', quads: true }],
  [ 'application/trig', { format: 'application/trig', quads: true }],
]);

/** Short names accepted in Fuseki's `format=` / `output=` query parameters. */
export const FORMAT_PARAMETER_ALIASES: ReadonlyMap<string, string> = new Map([
  [ 'json', 'application/sparql-results+json' ],
  [ 'xml', 'application/sparql-results+xml' ],
  [ 'csv', 'text/csv' ],
  [ 'tsv', 'text/tab-separated-values' ],
  [ 'ttl', 'text/turtle' ],
  [ 'turtle', 'text/turtle' ],
  [ 'nt', 'application/n-triples' ],
  [ 'ntriples', 'application/n-triples' ],
  [ 'n-triples', 'application/n-triples' ],
  [ 'nq', 'application/n-quads' ],
  [ 'nquads', 'application/n-quads' ],
  [ 'jsonld', 'application/ld+json' ],
  [ 'json-ld', 'application/ld+json' ],
  [ 'rdfxml', 'application/rdf+xml' ],
  [ 'trig', 'application/trig' ],
]);

/** Lower-cased media type of a Content-Type header, without parameters. */
export function mediaTypeOf(header: string | undefined): string {
  if (!header) {
    return '';
  }
  const semicolon = header.indexOf(';');
  return (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}
