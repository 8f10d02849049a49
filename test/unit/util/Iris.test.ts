import { isValidIri } from '../../../src/storage/SparqlTerms';
import { repairIri } from '../../../src/util/Iris';

describe('repairIri', (): void => {
  it.each([
    'https://mastodon.example/users/alice#main-key',
    'https://lemmy.example/post/1',
    'https://example.org/a%20b?q=1&r=%23',
    'urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66',
  ])('leaves a valid IRI unchanged: %s', (iri): void => {
    expect(repairIri(iri)).toBe(iri);
  });

  it('percent-encodes every fragment mark after the first', (): void => {
    expect(repairIri('https://blog.example/post/#activity#activity')).toBe('https://blog.example/post/#activity%23activity');
    expect(repairIri('https://blog.example/p#a#b#c')).toBe('https://blog.example/p#a%23b%23c');
  });

  it('percent-encodes the characters an IRI may not hold', (): void => {
    expect(repairIri('https://example.org/a b<c>"d{e}|f\\g^h`i')).toBe('https://example.org/a%20b%3Cc%3E%22d%7Be%7D%7Cf%5Cg%5Eh%60i');
  });

  it('makes what it repairs valid for the store', (): void => {
    for (const broken of [ 'https://w.example/p/#activity#activity', 'https://x.example/a b', 'https://x.example/tab\there' ]) {
      expect(isValidIri(broken)).toBe(false);
      expect(isValidIri(repairIri(broken))).toBe(true);
    }
  });
});
