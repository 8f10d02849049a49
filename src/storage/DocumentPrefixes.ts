import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { FEDPOD_NS } from './StoreVocabulary';

const { namedNode, literal, quad } = DataFactory;

/**
 * The prefixes a document was written with, kept in its metadata so that Turtle served later (after
 * a PATCH too) uses the document's own prefixes, as CSS does by keeping the document's text. One
 * triple per prefix, `<doc> fedpod:prefix "name namespace"`: about the document, never served (the
 * description resource leaves it out, see SparqlStoreAccessor).
 */
export const FEDPOD_PREFIX = `${FEDPOD_NS}prefix`;

/** CSS's converters note a parsed document's prefixes with this predicate (vann), in response metadata. */
const VANN_PREFERRED_PREFIX = 'http://purl.org/vocab/vann/preferredNamespacePrefix';

/** Prefix names as Turtle allows them (PN_PREFIX, ASCII part); anything else is not kept. */
const PREFIX_NAME = /^(?:[A-Za-z][\w.-]*)?$/u;

/** The metadata triples that keep `prefixes` for the document `iri`. */
export function prefixMetadata(iri: string, prefixes: Readonly<Record<string, string>>): Quad[] {
  return Object.entries(prefixes)
    .filter(([ name, namespace ]): boolean => PREFIX_NAME.test(name) && !name.endsWith('.') && namespace.length > 0 &&
      !/\s/u.test(namespace))
    .map(([ name, namespace ]): Quad => quad(namedNode(iri), namedNode(FEDPOD_PREFIX), literal(`${name} ${namespace}`)));
}

/** The prefixes kept for `iri`, or undefined when it has none (then the server's own are used). */
export function prefixesOf(metadata: readonly Quad[], iri: string): Record<string, string> | undefined {
  const prefixes: Record<string, string> = {};
  let found = false;
  for (const entry of metadata) {
    if (entry.subject.value === iri && entry.predicate.value === FEDPOD_PREFIX) {
      const space = entry.object.value.indexOf(' ');
      if (space >= 0) {
        prefixes[entry.object.value.slice(0, space)] = entry.object.value.slice(space + 1);
        found = true;
      }
    }
  }
  return found ? prefixes : undefined;
}

/** The prefixes CSS's RDF converter noted while parsing (`namespace vann:preferredNamespacePrefix name`). */
export function notedPrefixes(responseMetadata: readonly Quad[]): Record<string, string> {
  const prefixes: Record<string, string> = {};
  for (const entry of responseMetadata) {
    if (entry.predicate.value === VANN_PREFERRED_PREFIX && entry.subject.termType === 'NamedNode') {
      prefixes[entry.object.value] = entry.subject.value;
    }
  }
  return prefixes;
}
