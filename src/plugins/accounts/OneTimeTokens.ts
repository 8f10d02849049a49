import { createHash, timingSafeEqual } from 'node:crypto';

/** The SHA-256 (hex) of a one-time link's token: all an account record keeps of it. */
export function digestOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a link's token is the one whose digest a record keeps, compared in constant time. */
export function matchesDigest(token: string, digest: string | undefined): boolean {
  if (digest === undefined) {
    return false;
  }
  const expected = Buffer.from(digest, 'hex');
  const given = Buffer.from(digestOf(token), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
