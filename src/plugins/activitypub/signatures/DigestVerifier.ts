import { timingSafeEqual } from 'node:crypto';
import { isArrayBuffer } from 'node:util/types';
import { isInnerList, parseDictionary, type Dictionary } from 'structured-headers';
import { sha256, sha512 } from './SignatureCommon';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;

/**
 * Checks that a body is the one its sender digested: `Digest` (RFC 3230, signed under cavage) and
 * `Content-Digest` (RFC 9530, covered by RFC 9421). SHA-256 and SHA-512 are known; every known
 * digest given must match, and at least one must be given. Answers why not, or undefined.
 */
export class DigestVerifier {
  /** `Digest: SHA-256=<base64>[, SHA-512=<base64>]`; algorithm names are case-insensitive. */
  public checkDigest(value: string | undefined, body: Buffer | string): string | undefined {
    if (value === undefined) {
      return 'signed header digest is missing';
    }
    let known = 0;
    for (const part of value.split(',')) {
      const eq = part.indexOf('=');
      if (eq < 0) {
        continue;
      }
      const algorithm = part.slice(0, eq).trim().toLowerCase();
      const encoded = part.slice(eq + 1).trim();
      if (algorithm !== 'sha-256' && algorithm !== 'sha-512') {
        continue;
      }
      known += 1;
      if (!BASE64.test(encoded)) {
        return 'malformed Digest';
      }
      if (!matches(digestOf(algorithm, body), Buffer.from(encoded, 'base64'))) {
        return 'Digest does not match the body';
      }
    }
    return known === 0 ? 'Digest has no SHA-256' : undefined;
  }

  /** `Content-Digest: sha-256=:<base64>:[, sha-512=:<base64>:]`, a structured-field Dictionary. */
  public checkContentDigest(value: string | undefined, body: Buffer | string): string | undefined {
    if (value === undefined) {
      return 'covered field content-digest is missing';
    }
    let dictionary: Dictionary;
    try {
      dictionary = parseDictionary(value);
    } catch {
      return 'malformed Content-Digest';
    }
    let known = 0;
    for (const [ algorithm, member ] of dictionary) {
      if (algorithm !== 'sha-256' && algorithm !== 'sha-512') {
        continue;
      }
      const bytes = member[0];
      if (isInnerList(member) || !isArrayBuffer(bytes)) {
        return 'malformed Content-Digest';
      }
      known += 1;
      if (!matches(digestOf(algorithm, body), Buffer.from(bytes))) {
        return 'Content-Digest does not match the body';
      }
    }
    return known === 0 ? 'Content-Digest has no sha-256 or sha-512' : undefined;
  }
}

function digestOf(algorithm: 'sha-256' | 'sha-512', body: Buffer | string): Buffer {
  return algorithm === 'sha-256' ? sha256(body) : sha512(body);
}

function matches(expected: Buffer, given: Buffer): boolean {
  return expected.length === given.length && timingSafeEqual(expected, given);
}
