import type { Quad, Term } from '@rdfjs/types';
import type { JsonObject } from './Contexts';
import { inValueOrder, VALUE_POSITION } from './ValueOrder';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDF_FIRST = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#first';
const RDF_REST = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#rest';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
const XSD_STRING = `${XSD}string`;
const XSD_NON_NEGATIVE_INTEGER = `${XSD}nonNegativeInteger`;
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

interface TermDefinition {
  term: string;
  /** '@id' or a datatype IRI when the term coerces values; undefined otherwise. */
  coercion?: string;
  container?: string;
}

/** Thrown for shapes this compactor does not handle (RDF lists...): the caller falls back to jsonld.js. */
export class UnsupportedShapeError extends Error {}

type JsonValue = string | number | boolean | JsonObject | JsonValue[];

/** A compacted property value; `language` when it goes into a language map under that key. */
interface CompactedValue {
  term: string;
  value: JsonValue;
  language?: string;
}

/**
 * Turns quads into compacted JSON-LD for one fixed context, with nested nodes embedded.
 *
 * jsonld.js `fromRDF` + `compact` costs ~0.2 ms for a small note and has no embedding without framing
 * (which is far slower), so container listings compacted that way cost tens of milliseconds.
 * This class precomputes the context's term table once and builds the tree directly.
 * Its output is checked against jsonld.js in tests: expanding it gives back exactly the input quads.
 * IRIs in values are kept absolute (not prefix-compacted), which is valid JSON-LD and what
 * ActivityPub peers expect (`https://www.w3.org/ns/activitystreams#Public`, not `as:Public`).
 */
export class JsonLdCompactor {
  private readonly termsByIri = new Map<string, TermDefinition[]>();
  private readonly classTerms = new Map<string, string>();
  private readonly prefixes: [string, string][] = [];

  private readonly definedTerms: Set<string>;
  private readonly vocab?: string;

  /**
   * @param integerCounts - Also write an xsd:integer value of a count term (coerced to
   *   xsd:nonNegativeInteger, as `totalItems`) as that count: the embedded store gives counts back as
   *   xsd:integer. For ActivityPub peers, which read the number; LDP output keeps the exact datatype.
   */
  public constructor(private readonly context: JsonObject, private readonly integerCounts = false) {
    this.indexContext(context);
    this.definedTerms = new Set(Object.keys(context));
    // A blank-node @vocab (ActivityStreams' `_:`) names nothing that can be compacted back.
    const vocab = context['@vocab'];
    this.vocab = typeof vocab === 'string' && !vocab.startsWith('_:') ? vocab : undefined;
  }

  /**
   * Compacts the node `rootIri` and everything reachable from it.
   * Subjects that are not reachable make the shape unsupported (the caller falls back).
   */
  public compact(quads: readonly Quad[], rootIri: string): JsonObject {
    const index = this.indexBySubject(quads);
    const embedded = new Set<string>();
    const root = this.compactNode(rootIri, 'NamedNode', index, embedded, new Set());
    for (const key of index.keys()) {
      if (!embedded.has(key)) {
        throw new UnsupportedShapeError(`Subject ${key} is not reachable from ${rootIri}`);
      }
    }
    return root;
  }

  /** Compacts an IRI used as a type or a key: a term, then the context's @vocab, then a prefix, then the IRI itself. */
  public compactIri(iri: string): string {
    const term = this.classTerms.get(iri);
    if (term) {
      return term;
    }
    if (this.vocab && iri.startsWith(this.vocab)) {
      const local = iri.slice(this.vocab.length);
      // Only a name that is no term and reads as no IRI expands back to this IRI.
      if (local.length > 0 && !/[/#?:]/u.test(local) && !this.definedTerms.has(local)) {
        return local;
      }
    }
    for (const [ namespace, prefix ] of this.prefixes) {
      if (iri.startsWith(namespace) && iri.length > namespace.length) {
        const local = iri.slice(namespace.length);
        // A local part with '/' or '#' would read as an IRI path; keep such IRIs whole.
        if (!/[/#?:]/u.test(local)) {
          return `${prefix}:${local}`;
        }
      }
    }
    return iri;
  }

  private indexBySubject(quads: readonly Quad[]): Map<string, Quad[]> {
    const index = new Map<string, Quad[]>();
    for (const quad of quads) {
      if (quad.predicate.value === RDF_FIRST || quad.predicate.value === RDF_REST) {
        throw new UnsupportedShapeError('RDF lists are compacted by jsonld.js');
      }
      const key = this.key(quad.subject);
      let list = index.get(key);
      if (!list) {
        list = [];
        index.set(key, list);
      }
      list.push(quad);
    }
    return index;
  }

  private key(term: Term): string {
    return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
  }

  private compactNode(
    id: string,
    termType: 'NamedNode' | 'BlankNode',
    index: Map<string, Quad[]>,
    embedded: Set<string>,
    path: Set<string>,
  ): JsonObject {
    const key = termType === 'BlankNode' ? `_:${id}` : id;
    embedded.add(key);
    const node: JsonObject = {};
    if (termType === 'NamedNode') {
      node.id = id;
    }
    const quads = index.get(key) ?? [];
    const types = quads.filter((quad): boolean => quad.predicate.value === RDF_TYPE);
    if (types.length > 0) {
      const compacted = types.map((quad): string => quad.object.termType === 'NamedNode' ?
        this.compactIri(quad.object.value) :
        this.unsupported('a blank node as a type'));
      node.type = compacted.length === 1 ? compacted[0] : compacted;
    }
    path.add(key);
    // A position is how the store keeps an order (ValueOrder), not a property of the node.
    for (const quad of inValueOrder(quads, (term): Quad[] | undefined => index.get(this.key(term)))) {
      if (quad.predicate.value === RDF_TYPE || quad.predicate.value === VALUE_POSITION) {
        continue;
      }
      const { term, value, language } = this.compactValue(quad, index, embedded, path);
      const existing = node[term] as JsonValue | undefined;
      if (language !== undefined) {
        const map = (existing ?? {}) as Record<string, JsonValue>;
        const previous = map[language];
        map[language] = previous === undefined ? value : Array.isArray(previous) ? [ ...previous, value ] : [ previous, value ];
        node[term] = map;
      } else if (existing === undefined) {
        node[term] = value;
      } else if (Array.isArray(existing)) {
        existing.push(value);
      } else {
        node[term] = [ existing, value ];
      }
    }
    path.delete(key);
    return node;
  }

  private compactValue(
    quad: Quad,
    index: Map<string, Quad[]>,
    embedded: Set<string>,
    path: Set<string>,
  ): CompactedValue {
    const object = quad.object;
    const candidates = this.termsByIri.get(quad.predicate.value) ?? [];
    if (object.termType === 'NamedNode' || object.termType === 'BlankNode') {
      const objectKey = this.key(object);
      const canEmbed = index.has(objectKey) && !embedded.has(objectKey) && !path.has(objectKey);
      if (object.termType === 'BlankNode' && !canEmbed) {
        // A blank node referenced twice (or never described) cannot be written without an @id label.
        throw new UnsupportedShapeError('Shared blank nodes are compacted by jsonld.js');
      }
      const idTerm = candidates.find((def): boolean => def.coercion === '@id' && def.container !== '@list');
      const plainTerm = candidates.find((def): boolean => !def.coercion && !def.container);
      const def = idTerm ?? plainTerm;
      const term = def?.term ?? this.compactIri(quad.predicate.value);
      if (canEmbed) {
        return { term, value: this.compactNode(object.value, object.termType, index, embedded, path) };
      }
      return { term, value: def?.coercion === '@id' ? object.value : { id: object.value }};
    }
    if (object.termType !== 'Literal') {
      return this.unsupported(`a ${object.termType} object`);
    }
    const datatype = object.datatype.value;
    if (object.language) {
      // `contentMap: {"de": ...}` where the context has a language map for the property (as Mastodon writes it).
      const map = candidates.find((def): boolean => def.container === '@language');
      if (map) {
        return { term: map.term, value: object.value, language: object.language };
      }
      const plain = candidates.find((def): boolean => !def.coercion && !def.container);
      return { term: plain?.term ?? this.compactIri(quad.predicate.value),
        value: { '@value': object.value, '@language': object.language }};
    }
    if (datatype === XSD_STRING || datatype === RDF_LANG_STRING) {
      const plain = candidates.find((def): boolean => !def.coercion && !def.container);
      return { term: plain?.term ?? this.compactIri(quad.predicate.value), value: object.value };
    }
    if ((datatype === XSD_NON_NEGATIVE_INTEGER || (this.integerCounts && datatype === `${XSD}integer`)) &&
      /^(?:0|[1-9]\d{0,14})$/u.test(object.value)) {
      // A count (ActivityStreams' totalItems) is written as a JSON number, as every ActivityPub server
      // writes and reads it; the term's coercion expands it back to a count.
      const count = candidates.find((def): boolean => def.coercion === XSD_NON_NEGATIVE_INTEGER && !def.container);
      if (count) {
        return { term: count.term, value: Number(object.value) };
      }
    }
    const typed = candidates.find((def): boolean => def.coercion === datatype && !def.container);
    if (typed) {
      return { term: typed.term, value: object.value };
    }
    const plain = candidates.find((def): boolean => !def.coercion && !def.container);
    const native = this.nativeValue(object.value, datatype);
    if (plain && native !== undefined) {
      // JSON true/false and integers expand back to exactly these typed literals.
      return { term: plain.term, value: native };
    }
    return { term: plain?.term ?? this.compactIri(quad.predicate.value),
      value: { '@value': object.value, '@type': this.compactIri(datatype) }};
  }

  private nativeValue(value: string, datatype: string): boolean | number | undefined {
    if (datatype === `${XSD}boolean` && (value === 'true' || value === 'false')) {
      return value === 'true';
    }
    if (datatype === `${XSD}integer` && /^-?(?:0|[1-9]\d{0,14})$/u.test(value)) {
      return Number(value);
    }
    return undefined;
  }

  private unsupported(what: string): never {
    throw new UnsupportedShapeError(`Cannot compact ${what}`);
  }

  private indexContext(context: JsonObject): void {
    const expand = (value: string): string => {
      const colon = value.indexOf(':');
      if (colon > 0) {
        const prefix = value.slice(0, colon);
        const namespace = context[prefix];
        if (typeof namespace === 'string' && !value.startsWith('//', colon + 1)) {
          return `${namespace}${value.slice(colon + 1)}`;
        }
      }
      return value;
    };
    for (const [ term, definition ] of Object.entries(context)) {
      if (term.startsWith('@')) {
        continue;
      }
      if (typeof definition === 'string') {
        if (definition.startsWith('@')) {
          continue;
        }
        const iri = expand(definition);
        if (/[#/]$/u.test(definition) && !term.includes(':')) {
          this.prefixes.push([ definition, term ]);
          continue;
        }
        this.addTerm(iri, { term });
        if (!this.classTerms.has(iri)) {
          this.classTerms.set(iri, term);
        }
      } else if (definition && typeof definition === 'object') {
        const def = definition as Record<string, string | undefined>;
        if (!def['@id'] || def['@reverse']) {
          continue;
        }
        const coercion = def['@type'] ? (def['@type'] === '@id' || def['@type'] === '@vocab' ? '@id' : expand(def['@type'])) : undefined;
        this.addTerm(expand(def['@id']), { term, coercion, container: def['@container'] });
      }
    }
    // Longest namespace first so the most specific prefix wins.
    this.prefixes.sort((a, b): number => b[0].length - a[0].length);
  }

  private addTerm(iri: string, definition: TermDefinition): void {
    const list = this.termsByIri.get(iri) ?? [];
    list.push(definition);
    this.termsByIri.set(iri, list);
  }
}
