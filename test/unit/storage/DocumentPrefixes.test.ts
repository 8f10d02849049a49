import { DataFactory } from 'n3';
import { FEDPOD_PREFIX, notedPrefixes, prefixesOf, prefixMetadata } from '../../../src/storage/DocumentPrefixes';

const { namedNode, literal, quad } = DataFactory;
const DOC = 'http://localhost/notes/a';

describe('DocumentPrefixes', () => {
  it('keeps a document\'s prefixes as metadata triples about it and reads them back', () => {
    const metadata = prefixMetadata(DOC, { test: 'http://test.com/', '': 'http://default.example/#' });
    expect(metadata.every((entry): boolean => entry.subject.value === DOC && entry.predicate.value === FEDPOD_PREFIX)).toBe(true);
    expect(prefixesOf(metadata, DOC)).toEqual({ test: 'http://test.com/', '': 'http://default.example/#' });
  });

  it('reads none for another document or when none were kept', () => {
    const metadata = prefixMetadata(DOC, { test: 'http://test.com/' });
    expect(prefixesOf(metadata, 'http://localhost/notes/b')).toBeUndefined();
    expect(prefixesOf([], DOC)).toBeUndefined();
  });

  it('drops names Turtle could not write back and namespaces with spaces', () => {
    expect(prefixesOf(prefixMetadata(DOC, { '1bad': 'http://x/', 'bad.': 'http://y/', ok: 'http://z/', sp: 'http://a b/' }), DOC))
      .toEqual({ ok: 'http://z/' });
  });

  it('reads the prefixes CSS\'s converter notes while parsing', () => {
    const noted = [ quad(namedNode('http://test.com/'), namedNode('http://purl.org/vocab/vann/preferredNamespacePrefix'), literal('test')) ];
    expect(notedPrefixes(noted)).toEqual({ test: 'http://test.com/' });
  });
});
