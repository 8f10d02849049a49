import type { Literal, NamedNode, Quad, Term } from '@rdfjs/types';
import { FedpodHttpError } from '../util/HttpErrors';
import { forbiddenCharIndex, hasOneFragmentAtMost, hasScheme } from '../util/Iris';

/**
 * Serialises RDF terms as SPARQL / N-Triples text.
 *
 * This is the only place where values become query text: user data reaches SPARQL through
 * these functions, never by pasting strings. IRIs are validated against the IRIREF grammar
 * (characters that could close the IRI or open a new token are refused), and literals are
 * escaped as ECHAR / UCHAR sequences. Written by hand because n3's Writer keeps its term
 * encoders private and sparqljs does not validate IRIs.
 */

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

const LANGUAGE_TAG = /^[a-z]+(?:-[a-z0-9]+)*$/iu;

/**
 * A 400: the terms come from request data, so both CSS's pipeline and Fedpod's handlers answer
 * "bad request" instead of a 500.
 */
export class InvalidTermError extends FedpodHttpError {
  public constructor(message: string) {
    super(400, 'invalid_term', message);
    this.name = 'InvalidTermError';
  }
}

/**
 * IRIREF ::= '<' ([^#x00-#x20<>"{}|^`\] | UCHAR)* '>', and an absolute IRI with a scheme. One `#` at
 * most: the fragment cannot hold another, and stores refuse the whole update for it.
 */
export function isValidIri(iri: string): boolean {
  return hasScheme(iri) && forbiddenCharIndex(iri) < 0 && hasOneFragmentAtMost(iri);
}

export function sparqlIri(iri: string): string {
  if (!isValidIri(iri)) {
    throw new InvalidTermError(`Not a valid absolute IRI: ${JSON.stringify(iri.slice(0, 200))}`);
  }
  return `<${iri}>`;
}

/** Escapes a string for use between double quotes in SPARQL or N-Triples. */
export function escapeString(value: string): string {
  let out = '';
  for (const char of value) {
    switch (char) {
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      default: {
        const code = char.codePointAt(0)!;
        // A lone surrogate (valid in JSON, not in Unicode text) is refused by SPARQL parsers: use U+FFFD.
        if (code >= 0xD800 && code <= 0xDFFF) {
          out += '\uFFFD';
        } else if (code < 0x20 || code === 0x7F) {
          // Other control characters would break parsers: use UCHAR.
          out += `\\u${code.toString(16).padStart(4, '0').toUpperCase()}`;
        } else {
          out += char;
        }
      }
    }
  }
  return out;
}

export function sparqlLiteral(literal: Literal): string {
  const body = `"${escapeString(literal.value)}"`;
  if (literal.language) {
    if (!LANGUAGE_TAG.test(literal.language)) {
      throw new InvalidTermError(`Not a valid language tag: ${JSON.stringify(literal.language)}`);
    }
    return `${body}@${literal.language}`;
  }
  const datatype = literal.datatype?.value;
  if (!datatype || datatype === XSD_STRING || datatype === RDF_LANG_STRING) {
    return body;
  }
  return `${body}^^${sparqlIri(datatype)}`;
}

export function sparqlTerm(term: Term): string {
  switch (term.termType) {
    case 'NamedNode': return sparqlIri(term.value);
    case 'Literal': return sparqlLiteral(term);
    case 'Variable':
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/u.test(term.value)) {
        throw new InvalidTermError(`Not a valid variable name: ${term.value}`);
      }
      return `?${term.value}`;
    case 'BlankNode':
      // Blank node labels are only safe when they are plain names; stores such as Virtuoso refuse them
      // in INSERT DATA, so writers skolemise them first (see Skolemizer).
      if (!/^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?$/u.test(term.value)) {
        throw new InvalidTermError(`Not a valid blank node label: ${term.value}`);
      }
      return `_:${term.value}`;
    case 'DefaultGraph':
      throw new InvalidTermError('The default graph has no SPARQL term form.');
    default:
      throw new InvalidTermError(`Unsupported term type ${(term as Term).termType}`);
  }
}

/** One triple pattern line: `s p o .` */
export function sparqlTriple(quad: Pick<Quad, 'subject' | 'predicate' | 'object'>): string {
  return `${sparqlTerm(quad.subject)} ${sparqlTerm(quad.predicate)} ${sparqlTerm(quad.object)} .`;
}

/** A `GRAPH <g> { ... }` block holding the given triples (quads' own graphs are ignored). */
export function sparqlGraphBlock(graph: NamedNode, quads: readonly Pick<Quad, 'subject' | 'predicate' | 'object'>[]): string {
  return `GRAPH ${sparqlIri(graph.value)} { ${quads.map(sparqlTriple).join(' ')} }`;
}
