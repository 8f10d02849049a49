import { repairIri } from '../../util/Iris';
import { ADDRESS_FIELDS, PRIVATE_ADDRESS_FIELDS } from './ActivityVocabulary';

/** Small readers for ActivityStreams JSON, where a value may be a string, an object with an id, or an array. */
export type Json = Record<string, unknown>;

export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as Json).id === 'string') {
    return (value as Json).id as string;
  }
  return undefined;
}

export function idsOf(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [ value ];
  return values.map(idOf).filter((id): id is string => id !== undefined);
}

export function typeOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return undefined;
  }
  const type = (value as Json).type;
  if (typeof type === 'string') {
    return type;
  }
  return Array.isArray(type) && typeof type[0] === 'string' ? type[0] : undefined;
}

export function isObject(value: unknown): value is Json {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Removes the blind copies (bto, bcc) of an activity and of the object it embeds, in place: they are
 * for the author's server only (ActivityPub §5.1), never shown or delivered.
 */
export function withoutBlindCopies(document: Json): Json {
  for (const field of PRIVATE_ADDRESS_FIELDS) {
    delete document[field];
    if (isObject(document.object)) {
      delete document.object[field];
    }
  }
  return document;
}

/**
 * Makes the ids of another server's document storable, in place, at any depth: an `id` of null
 * (BookWyrm sends them on attachments; JSON-LD refuses them) is dropped, leaving a blank node, and
 * an id that is not a valid IRI is repaired (repairIri), so the graph it names and the triples
 * about it agree. Other IRIs are repaired as the document is read (JsonLdParser, lenient).
 */
export function withStorableIds(value: unknown): void {
  if (Array.isArray(value)) {
    value.forEach(withStorableIds);
  } else if (isObject(value)) {
    for (const key of [ 'id', '@id' ]) {
      if (value[key] === null) {
        delete value[key];
      } else if (typeof value[key] === 'string') {
        value[key] = repairIri(value[key] as string);
      }
    }
    Object.values(value).forEach(withStorableIds);
  }
}

/** The addressing fields (to, cc, bto, bcc, audience) of a document, for an activity about it (its Delete, Undo, Update). */
export function addressingOf(stored: Json): Json {
  const addressing: Json = {};
  for (const field of ADDRESS_FIELDS) {
    if (stored[field] !== undefined) {
      addressing[field] = stored[field];
    }
  }
  return addressing;
}
