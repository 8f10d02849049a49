import { isValidIri } from '../../../src/storage/SparqlTerms';
import { forbiddenCharIndex, hasOneFragmentAtMost, hasScheme, repairIri } from '../../../src/util/Iris';

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

describe('the IRI character checks', (): void => {
  // What they replace, as the grammar says it: IRIREF's forbidden characters, and a scheme.
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  const forbidden = /[\u0000-\u0020<>"{}|^`\\]/u;
  const scheme = /^[a-z][a-z0-9+.-]*:/iu;

  it('find exactly the characters IRIREF forbids, wherever they are', (): void => {
    for (let code = 0; code < 0x3000; code += 1) {
      const char = String.fromCharCode(code);
      for (const iri of [ `${char}`, `https://a.example/${char}`, `${char}x`, `https://a.example/x${char}y` ]) {
        const expected = forbidden.exec(iri)?.index ?? -1;
        expect(forbiddenCharIndex(iri)).toBe(expected);
      }
    }
    // Surrogates, paired or alone, are not forbidden characters (a lone one is caught elsewhere).
    expect(forbiddenCharIndex('https://a.example/\u{1F600}\uD800')).toBe(-1);
  });

  it('recognise a scheme as the grammar does, for ASCII', (): void => {
    const parts = [ '', 'a', 'Z', '9', '+', '-', '.', ':', '/', '_', ' ', '#', 'é' ];
    for (const first of parts) {
      for (const second of parts) {
        for (const third of parts) {
          const iri = `${first}${second}${third}x`;
          expect(hasScheme(iri)).toBe(scheme.test(iri));
        }
      }
    }
  });

  it('count fragments', (): void => {
    expect(hasOneFragmentAtMost('https://a.example/')).toBe(true);
    expect(hasOneFragmentAtMost('https://a.example/#x')).toBe(true);
    expect(hasOneFragmentAtMost('https://a.example/#x#y')).toBe(false);
    expect(hasOneFragmentAtMost('##')).toBe(false);
  });

  it('leave a valid IRI as it is and repair the others as before', (): void => {
    const valid = 'https://a.example/p?q=1#f';
    expect(repairIri(valid)).toBe(valid);
    expect(repairIri('https://a.example/a b#x#y')).toBe('https://a.example/a%20b#x%23y');
  });
});
