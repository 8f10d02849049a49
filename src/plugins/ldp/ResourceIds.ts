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

/**
 * A UUIDv7 name; with `at`, its time is that instant's millisecond, so that names minted for one
 * write (an activity and its object) carry the time the write is recorded with.
 */
export function generatedName(at?: Date): string {
  return at ? uuidv7({ msecs: at.getTime() }) : uuidv7();
}
