import type { Quad } from '@rdfjs/types';
import type { ResourceGraphs } from '../../../storage/ResourceGraphs';
import { RDF_TYPE } from '../../../storage/StoreVocabulary';
import type { Json } from '../ActivityJson';
import { idOf, idsOf } from '../ActivityJson';
import { ADDRESS_FIELDS, AS_NS } from '../ActivityVocabulary';

type AddressField = typeof ADDRESS_FIELDS[number];

/** An object's addressing by field, as stored. */
export type Audience = Partial<Record<AddressField, string[]>>;

/** Whether the activity (or object) names no addressee in any field. */
export function isUnaddressed(document: Json): boolean {
  return ADDRESS_FIELDS.every((field): boolean => idsOf(document[field]).length === 0);
}

/** The stored addressing of `iri` (to, cc, bto, bcc, audience), fields without entries left out. */
export function storedAudience(iri: string, data: readonly Quad[]): Audience {
  const audience: Audience = {};
  for (const field of ADDRESS_FIELDS) {
    const values = data.filter((entry): boolean => entry.subject.value === iri && entry.predicate.value === `${AS_NS}${field}`)
      .map((entry): string => entry.object.value);
    if (values.length > 0) {
      audience[field] = values;
    }
  }
  return audience;
}

/** The actors the stored object's Mention tags name. */
export function mentionedActors(iri: string, data: readonly Quad[]): string[] {
  const tags = new Set(data.filter((entry): boolean => entry.subject.value === iri && entry.predicate.value === `${AS_NS}tag`)
    .map((entry): string => entry.object.value));
  const mentions = new Set(data.filter((entry): boolean => tags.has(entry.subject.value) && entry.predicate.value === RDF_TYPE &&
    entry.object.value === `${AS_NS}Mention`).map((entry): string => entry.subject.value));
  return data.filter((entry): boolean => mentions.has(entry.subject.value) && entry.predicate.value === `${AS_NS}href`)
    .map((entry): string => entry.object.value);
}

/** The author of a stored object (local, or another server's that reached this one); undefined when none is stored. */
export async function authorOf(store: ResourceGraphs, iri: string): Promise<string | undefined> {
  const data = await store.readData(iri);
  return data.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === `${AS_NS}attributedTo`)?.object.value;
}

/**
 * Who received a stored object when it was posted, as the addressing of an Update or Delete of it
 * that names nobody (Mastodon sends those to everyone who got the original): its stored to, cc,
 * bto, bcc and audience (a followers collection is expanded again at delivery), with the actors it
 * mentions and the author of what it replies to added to cc.
 */
export async function originalAudience(store: ResourceGraphs, iri: string, data: readonly Quad[]): Promise<Audience> {
  const audience = storedAudience(iri, data);
  const extra = mentionedActors(iri, data);
  const parent = data.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === `${AS_NS}inReplyTo`)?.object.value;
  const parentAuthor = parent ? await authorOf(store, parent) : undefined;
  if (parentAuthor) {
    extra.push(parentAuthor);
  }
  const named = new Set(ADDRESS_FIELDS.flatMap((field): string[] => audience[field] ?? []));
  const cc = [ ...new Set(extra) ].filter((actor): boolean => !named.has(actor));
  if (cc.length > 0) {
    audience.cc = [ ...audience.cc ?? [], ...cc ];
  }
  return audience;
}

/** Sets the addressing fields of `document` to `audience`, in place. */
export function address(document: Json, audience: Audience): void {
  for (const field of ADDRESS_FIELDS) {
    if (audience[field]) {
      document[field] = audience[field];
    }
  }
}

/**
 * A reply reaches the author of the post it answers even when the client did not address them (as
 * Mastodon's replies mention the author): the parent's author, local or of another server, is added
 * to the cc of a Create and its object, in place, unless the reply names them already. The parent
 * is read from the store only (nothing is fetched for it).
 */
export async function addressParentAuthor(store: ResourceGraphs, create: Json, actor: string): Promise<void> {
  const object = create.object as Json;
  const parent = idOf(object.inReplyTo);
  if (!parent) {
    return;
  }
  const author = await authorOf(store, parent);
  const named = ADDRESS_FIELDS.flatMap((field): string[] => idsOf(create[field]));
  if (!author || author === actor || named.includes(author)) {
    return;
  }
  for (const document of [ create, object ]) {
    document.cc = [ ...idsOf(document.cc), author ];
  }
}
