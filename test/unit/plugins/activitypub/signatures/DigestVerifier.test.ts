import { createHash } from 'node:crypto';
import { DigestVerifier } from '../../../../../src/plugins/activitypub/signatures/DigestVerifier';

const digests = new DigestVerifier();
const BODY = Buffer.from('{"type":"Create"}');
const OTHER = Buffer.from('{"type":"Delete"}');

function digest(algorithm: 'sha256' | 'sha512', body: Buffer): string {
  return createHash(algorithm).update(body).digest('base64');
}

describe('DigestVerifier', () => {
  describe('Digest (cavage)', () => {
    it.each([
      `SHA-256=${digest('sha256', BODY)}`,
      `sha-256=${digest('sha256', BODY)}`,
      `SHA-512=${digest('sha512', BODY)}`,
      `MD5=1B2M2Y8AsgTpgAEPq9N3Tw==, SHA-256=${digest('sha256', BODY)}`,
      `SHA-256=${digest('sha256', BODY)},SHA-512=${digest('sha512', BODY)}`,
    ])('accepts %s', (value) => {
      expect(digests.checkDigest(value, BODY)).toBeUndefined();
    });

    it.each([
      [ `SHA-256=${digest('sha256', OTHER)}`, 'Digest does not match the body' ],
      [ `SHA-256=${digest('sha256', BODY)}, SHA-512=${digest('sha512', OTHER)}`, 'Digest does not match the body' ],
      [ 'SHA-256=not base64!', 'malformed Digest' ],
      [ 'MD5=1B2M2Y8AsgTpgAEPq9N3Tw==', 'Digest has no SHA-256' ],
      [ 'garbage', 'Digest has no SHA-256' ],
    ])('refuses %s', (value, reason) => {
      expect(digests.checkDigest(value, BODY)).toBe(reason);
    });

    it('refuses a missing Digest and digests an absent body as empty', () => {
      expect(digests.checkDigest(undefined, BODY)).toBe('signed header digest is missing');
      expect(digests.checkDigest(`SHA-256=${digest('sha256', Buffer.alloc(0))}`, '')).toBeUndefined();
    });
  });

  describe('Content-Digest (RFC 9530)', () => {
    it.each([
      `sha-256=:${digest('sha256', BODY)}:`,
      `sha-512=:${digest('sha512', BODY)}:`,
      `md5=:AAAA:, sha-256=:${digest('sha256', BODY)}:`,
      `sha-256=:${digest('sha256', BODY)}:;p=1,  sha-512=:${digest('sha512', BODY)}:`,
    ])('accepts %s', (value) => {
      expect(digests.checkContentDigest(value, BODY)).toBeUndefined();
    });

    it.each([
      [ `sha-256=:${digest('sha256', OTHER)}:`, 'Content-Digest does not match the body' ],
      [ `sha-256=:${digest('sha256', BODY)}:, sha-512=:${digest('sha512', OTHER)}:`, 'Content-Digest does not match the body' ],
      // The Digest header's syntax is not a Content-Digest.
      [ `sha-256=${digest('sha256', BODY)}`, 'malformed Content-Digest' ],
      [ `sha-256="${digest('sha256', BODY)}"`, 'malformed Content-Digest' ],
      [ `sha-256=(:${digest('sha256', BODY)}:)`, 'malformed Content-Digest' ],
      [ 'SHA-256=:AAAA:', 'malformed Content-Digest' ],
      [ 'sha-256=:not base64!:', 'malformed Content-Digest' ],
      [ 'md5=:AAAA:', 'Content-Digest has no sha-256 or sha-512' ],
      [ '', 'Content-Digest has no sha-256 or sha-512' ],
    ])('refuses %j', (value, reason) => {
      expect(digests.checkContentDigest(value, BODY)).toBe(reason);
    });

    it('refuses a missing Content-Digest', () => {
      expect(digests.checkContentDigest(undefined, BODY)).toBe('covered field content-digest is missing');
    });
  });
});
