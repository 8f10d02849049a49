import { eTagFor, isNotModified } from '../../../../src/handlers/http/ConditionalGet';

describe('ConditionalGet', () => {
  const modified = new Date('2026-11-28T12:00:00.500Z');
  const eTag = eTagFor(modified, 'image/jpeg')!;

  it('gives the ETag shape CSS gives, none without a date', () => {
    expect(eTag).toBe(`"${modified.getTime()}-image/jpeg"`);
    expect(eTagFor(undefined, 'image/jpeg')).toBeUndefined();
  });

  it('matches If-None-Match first (a list, weak tags, *), then If-Modified-Since to the second', () => {
    expect(isNotModified(`"other", W/${eTag}`, undefined, eTag, modified)).toBe(true);
    expect(isNotModified('*', undefined, eTag, modified)).toBe(true);
    expect(isNotModified('"other"', modified.toUTCString(), eTag, modified)).toBe(false);
    expect(isNotModified(undefined, modified.toUTCString(), eTag, modified)).toBe(true);
    expect(isNotModified(undefined, new Date(modified.getTime() - 1000).toUTCString(), eTag, modified)).toBe(false);
    expect(isNotModified(undefined, 'not a date', eTag, modified)).toBe(false);
    expect(isNotModified(undefined, undefined, eTag, modified)).toBe(false);
  });
});
