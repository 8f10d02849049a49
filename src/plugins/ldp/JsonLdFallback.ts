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
  const root = graph.find((node): boolean => node.id === rootIri);
  const others = graph.filter((node): boolean => node !== root);
  return { ...root ?? { id: rootIri }, ...others.length > 0 ? { '@included': others } : {}};
}
