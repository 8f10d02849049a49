import type { Quad } from '@rdfjs/types';
import jsonld from 'jsonld';
import type { JsonObject } from './Contexts';
import type { DocumentLoader } from './DocumentLoader';

/**
 * Compaction by jsonld.js, for the shapes JsonLdCompactor leaves out (RDF lists, shared blank
 * nodes...). Several top-level nodes come back with the root first and the rest as `@included`.
 * Returns the node without `@context`.
 */
export async function compactWithJsonLd(quads: readonly Quad[], context: unknown, rootIri: string,
  documentLoader: DocumentLoader): Promise<JsonObject> {
  const expanded = await jsonld.fromRDF(quads as never);
  const compacted = await jsonld.compact(expanded, context as jsonld.ContextDefinition,
    { documentLoader: documentLoader.load as never });
  delete compacted['@context'];
  const graph = compacted['@graph'] as JsonObject[] | undefined;
  if (!graph) {
    return compacted as JsonObject;
  }
  const found = graph.find((node): boolean => node.id === rootIri) ?? { id: rootIri };
  const { root, others } = embedBlankNodes(found, graph.filter((node): boolean => node !== found));
  return { ...root, ...others.length > 0 ? { '@included': others } : {}};
}

/**
 * Puts each node referenced once back where it is referenced, as the fast compactor (and every
 * sender) writes it: jsonld.js lists every node at the top, so an attachment with a focal point (an
 * RDF list) would otherwise become `"attachment": "_:b0"`, and a received Create's Note `"object":
 * "<iri>"` with the Note beside it, which no reader follows. A blank node loses its `_:` id; a named
 * node (the Note, a stored blank node's skolem IRI) keeps its own.
 */
// Where an IRI names a page or the node itself, never a node to put there (a Note's `url` may be its id).
const LINKS = new Set([ 'id', 'url', 'href' ]);

function embedBlankNodes(root: JsonObject, nodes: JsonObject[]): { root: JsonObject; others: JsonObject[] } {
  const blanks = new Map<string, JsonObject>();
  for (const node of nodes) {
    if (typeof node.id === 'string') {
      blanks.set(node.id, node);
    }
  }
  const counts = new Map<string, number>();
  const reference = (value: unknown): string | undefined => {
    const id = typeof value === 'string' ? value : isReference(value) ? value.id as string : undefined;
    return id !== undefined && blanks.has(id) ? id : undefined;
  };
  const count = (value: unknown): void => {
    const id = reference(value);
    if (id !== undefined) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
    } else if (Array.isArray(value)) {
      value.forEach(count);
    } else if (value && typeof value === 'object') {
      Object.entries(value).forEach(([ key, inner ]): void => {
        if (!LINKS.has(key)) {
          count(inner);
        }
      });
    }
  };
  [ root, ...nodes ].forEach((node): void => Object.entries(node).forEach(([ key, value ]): void => {
    if (!LINKS.has(key)) {
      count(value);
    }
  }));
  const embedded = new Set<string>();
  const embed = (value: unknown): unknown => {
    const id = reference(value);
    if (id !== undefined && counts.get(id) === 1 && !embedded.has(id)) {
      embedded.add(id);
      const node = { ...blanks.get(id)! };
      if (id.startsWith('_:')) {
        delete node.id;
      }
      return embed(node);
    }
    if (Array.isArray(value)) {
      return value.map(embed);
    }
    if (value && typeof value === 'object' && id === undefined) {
      return Object.fromEntries(Object.entries(value).map(([ key, inner ]): [string, unknown] => [ key, LINKS.has(key) ? inner : embed(inner) ]));
    }
    return value;
  };
  const result = embed(root) as JsonObject;
  return { root: result, others: nodes.filter((node): boolean => !embedded.has(node.id as string)) };
}

function isReference(value: unknown): value is JsonObject {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value) &&
    Object.keys(value as object).length === 1 && typeof (value as JsonObject).id === 'string';
}
