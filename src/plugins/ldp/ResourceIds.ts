import { v7 as uuidv7 } from 'uuid';

/**
 * New resource names: the client's Slug when it is usable, else a UUIDv7.
 * UUIDv7 is time-ordered, so container members listed by IRI come out in creation order.
 */
export function newResourceName(slug: string | undefined): string {
  const cleaned = (slug ?? '').trim().replace(/[^A-Za-z0-9._~-]+/gu, '-').replace(/^[.-]+|-+$/gu, '').slice(0, 128)
    // A name ending in .acl, .meta or .acr would be read as the auxiliary resource of a sibling.
    .replace(/\.(acl|meta|acr)$/iu, '-$1');
  return cleaned === '' ? uuidv7() : cleaned;
}

export function generatedName(): string {
  return uuidv7();
}
