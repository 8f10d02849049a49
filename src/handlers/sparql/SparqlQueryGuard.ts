import type { NamedNode } from '@rdfjs/types';
import type { Query, SparqlQuery } from 'sparqljs';
import { Generator, Parser } from 'sparqljs';
import { DataFactory } from 'n3';
import { badRequest, forbidden } from '../../util/HttpErrors';
import { refuseTooComplex } from './QueryComplexityLimit';
import { messageOf } from '../../util/Errors';

export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

export interface CheckedQuery {
  form: QueryForm;
  /** The query the store gets: regenerated from the checked parse, never the client's text. */
  text: string;
}

export interface QueryDataset {
  /** `default-graph-uri` protocol parameters (replace the query's FROM). */
  defaultGraphs: string[];
  /** `named-graph-uri` protocol parameters (replace the query's FROM NAMED). */
  namedGraphs: string[];
}

/**
 * Function IRIs a public query may call: XSD casts and the standard function libraries
 * (XPath, GeoSPARQL, Jena's ARQ). Every other extension function is refused: stores map some
 * function IRIs onto server internals (Virtuoso: `bif:` and `sql:` call SQL procedures, some of which
 * write data; Jena: `java:` loads classes).
 */
const ALLOWED_FUNCTION_NAMESPACES = [
  'http://www.w3.org/2001/XMLSchema#',
  'http://www.w3.org/2005/xpath-functions#',
  'http://www.w3.org/2005/xpath-functions/math#',
  'http://www.opengis.net/def/function/geosparql/',
  'http://jena.apache.org/ARQ/function#',
];

/** IRI schemes stores treat as calls into their internals, refused anywhere in a query. */
const INTERNAL_SCHEMES = /^(?:bif|sql|java|clr):/iu;

function refuseInternalIris(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) {
      refuseInternalIris(child);
    }
    return;
  }
  if (typeof node !== 'object' || node === null) {
    return;
  }
  const record = node as Record<string, unknown>;
  if (record.termType === 'NamedNode' && typeof record.value === 'string') {
    if (INTERNAL_SCHEMES.test(record.value)) {
      throw forbidden(`The IRI <${record.value}> names a store internal and is not allowed.`, 'forbidden_iri');
    }
    return;
  }
  if (record.type === 'service') {
    throw forbidden('SERVICE (federated query) is not allowed on this endpoint.', 'service_forbidden');
  }
  if (record.type === 'functionCall') {
    const fn = record.function as { value?: string } | string;
    const iri = typeof fn === 'string' ? fn : fn.value ?? '';
    if (!ALLOWED_FUNCTION_NAMESPACES.some((namespace): boolean => iri.startsWith(namespace))) {
      throw forbidden(`The extension function <${iri}> is not allowed on this endpoint.`, 'function_forbidden');
    }
  }
  for (const value of Object.values(record)) {
    refuseInternalIris(value);
  }
}

/** A `default-graph-uri` / `named-graph-uri` value, which must be an absolute IRI. */
function graphIri(iri: string): NamedNode {
  // eslint-disable-next-line no-control-regex
  if (!/^[a-z][\w+.-]*:[^\u0000-\u0020<>"{}|^`\\]*$/iu.test(iri)) {
    throw badRequest(`The graph IRI ${JSON.stringify(iri)} is not an absolute IRI.`, 'invalid_graph_iri');
  }
  return DataFactory.namedNode(iri);
}

/**
 * Parses a client's SPARQL text and lets through read-only queries only.
 * - a syntax error → 400 `invalid_query`;
 * - an update (INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY) → 403 `update_forbidden`;
 * - SERVICE, non-standard functions and store-internal IRIs (`bif:`, `sql:`...) → 403;
 * - a query too deep or too large for the store to run safely → 400 `query_too_complex`.
 * The text sent on is regenerated from the parse, so the store runs exactly what was checked
 * (no parser differences between sparqljs and the store can smuggle anything through).
 * Relative IRIs resolve against `baseIri` (the server's base URL: `<notes/>` means the notes container).
 */
export function checkQuery(text: string, baseIri: string, dataset?: QueryDataset): CheckedQuery {
  let parsed: SparqlQuery;
  try {
    parsed = new Parser({ baseIRI: baseIri }).parse(text);
  } catch (error: unknown) {
    // sparqljs adds the list of every token it expected: keep the position and the start of that list.
    const message = messageOf(error).split('\n').slice(0, 4).join('\n').slice(0, 400);
    throw badRequest(`The query is not valid SPARQL 1.1: ${message}`, 'invalid_query');
  }
  if (parsed.type !== 'query') {
    throw forbidden('This endpoint is read-only: SPARQL updates are not accepted.', 'update_forbidden');
  }
  // Before the recursive walks below and long before the store's engine sees it.
  refuseTooComplex(parsed);
  refuseInternalIris(parsed);
  const query: Query = parsed;
  // Every IRI was resolved while parsing; a BASE would only repeat the server's base URL.
  delete query.base;
  if (dataset && (dataset.defaultGraphs.length > 0 || dataset.namedGraphs.length > 0)) {
    // SPARQL 1.1 Protocol §2.1.4: the protocol's dataset replaces the query's FROM / FROM NAMED.
    query.from = { default: dataset.defaultGraphs.map(graphIri), named: dataset.namedGraphs.map(graphIri) };
    refuseInternalIris(query.from);
  }
  return { form: query.queryType, text: new Generator().stringify(query) };
}
