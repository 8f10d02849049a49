import type { Quad, Term } from '@rdfjs/types';
import { FEDPOD_NS } from '../../storage/StoreVocabulary';

/**
 * The position of a value among its property's values, stored beside it: RDF keeps no order, so a
 * Question's options (`oneOf`, `anyOf`) or a post's attachments would come back in whatever order
 * the store lists them.
 */
export const VALUE_POSITION = `${FEDPOD_NS}position`;

/** ActivityStreams properties whose values are read back in the order they were written. */
const ORDERED_PROPERTIES = new Set([ 'oneOf', 'anyOf', 'attachment' ]);

/**
 * A copy of an ActivityStreams document in which each object value of an ordered property carries
 * its position (VALUE_POSITION), at any depth (a Create's Question). Other values are as they were.
 */
export function withValuePositions(document: unknown): unknown {
  if (Array.isArray(document)) {
    return document.map(withValuePositions);
  }
  if (!document || typeof document !== 'object') {
    return document;
  }
  const copy: Record<string, unknown> = {};
  for (const [ key, value ] of Object.entries(document as Record<string, unknown>)) {
    copy[key] = ORDERED_PROPERTIES.has(key) && Array.isArray(value) ?
      value.map((entry, position): unknown => isPlainObject(entry) ?
        { ...withValuePositions(entry) as Record<string, unknown>, [VALUE_POSITION]: position } :
        entry) :
      withValuePositions(value);
  }
  return copy;
}

/**
 * A node's quads with the values that have a position (a quad about the value node, in `quadsOf`)
 * in that order, ahead of the others of the node; the order of the others is kept.
 */
export function inValueOrder(quads: readonly Quad[], quadsOf: (node: Term) => readonly Quad[] | undefined): Quad[] {
  const positions = new Map<Quad, number>();
  for (const quad of quads) {
    if (quad.object.termType === 'BlankNode' || quad.object.termType === 'NamedNode') {
      const position = quadsOf(quad.object)?.find((entry): boolean => entry.predicate.value === VALUE_POSITION);
      if (position) {
        positions.set(quad, Number(position.object.value));
      }
    }
  }
  if (positions.size === 0) {
    return [ ...quads ];
  }
  const rank = (quad: Quad): number => positions.get(quad) ?? Number.POSITIVE_INFINITY;
  return [ ...quads ].sort((first, second): number => rank(first) - rank(second));
}

/**
 * A compacted document (jsonld.js's, for the shapes the fast compactor leaves to it) with the values
 * that carry a position sorted by it, and the positions taken out.
 */
export function inCompactedValueOrder(document: unknown): unknown {
  if (Array.isArray(document)) {
    const entries = document.map((entry): { entry: unknown; position: number } =>
      ({ entry: inCompactedValueOrder(entry), position: positionOf(entry) }));
    return entries.sort((first, second): number => first.position - second.position).map(({ entry }): unknown => entry);
  }
  if (!document || typeof document !== 'object') {
    return document;
  }
  const copy: Record<string, unknown> = {};
  for (const [ key, value ] of Object.entries(document as Record<string, unknown>)) {
    if (key !== VALUE_POSITION) {
      copy[key] = inCompactedValueOrder(value);
    }
  }
  return copy;
}

/** The position a compacted value carries (a number, or jsonld.js's typed `@value`); none: last. */
function positionOf(entry: unknown): number {
  const value = isPlainObject(entry) ? (entry as Record<string, unknown>)[VALUE_POSITION] : undefined;
  const position = Number(value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['@value'] : value);
  return value === undefined || Number.isNaN(position) ? Number.POSITIVE_INFINITY : position;
}

function isPlainObject(value: unknown): boolean {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value) &&
    (value as Record<string, unknown>)['@value'] === undefined;
}
