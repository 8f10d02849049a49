import { Store } from 'oxigraph';
import { DatasetOperationApplier } from '../../../../src/storage/embedded/DatasetOperationApplier';

/** The store's quads as sorted `s p o g` lines (g empty for the default graph). */
function lines(store: Store): string[] {
  return store.match().map((entry): string =>
    `${entry.subject.value} ${entry.predicate.value} ${entry.object.value} ${entry.graph.value}`).sort();
}

describe('DatasetOperationApplier', (): void => {
  const applier = new DatasetOperationApplier();
  let store: Store;

  beforeEach((): void => {
    store = new Store();
    applier.apply(store, { kind: 'update', sparql: 'INSERT DATA { <urn:d> <urn:p> "default" . GRAPH <urn:g> { <urn:n> <urn:p> "named" } GRAPH <urn:h> { <urn:h> <urn:p> "other" } }' });
  });

  it('runs a SPARQL update', (): void => {
    expect(lines(store)).toEqual([ 'urn:d urn:p default ', 'urn:h urn:p other urn:h', 'urn:n urn:p named urn:g' ]);
  });

  it('adds a body to the named or the default graph, relative IRIs against the base', (): void => {
    applier.apply(store, { kind: 'graphAdd', target: { kind: 'named', iri: 'urn:g' }, format: 'text/turtle',
      baseIri: 'http://example.org/', body: Buffer.from('<a> <urn:p> "added" .') });
    applier.apply(store, { kind: 'graphAdd', target: { kind: 'default' }, format: 'application/n-triples',
      body: Buffer.from('<urn:e> <urn:p> "too" .\n') });
    expect(lines(store)).toEqual(expect.arrayContaining([ 'http://example.org/a urn:p added urn:g', 'urn:e urn:p too ' ]));
    expect(lines(store)).toContain('urn:n urn:p named urn:g');
  });

  it('replaces one graph, leaving the others', (): void => {
    applier.apply(store, { kind: 'graphReplace', target: { kind: 'named', iri: 'urn:g' }, format: 'text/turtle',
      body: Buffer.from('<urn:x> <urn:p> "replaced" .') });
    expect(lines(store)).toEqual([ 'urn:d urn:p default ', 'urn:h urn:p other urn:h', 'urn:x urn:p replaced urn:g' ]);
  });

  it('changes nothing when a replacement body does not parse', (): void => {
    const before = lines(store);
    expect((): void => applier.apply(store, { kind: 'graphReplace', target: { kind: 'default' }, format: 'text/turtle',
      body: Buffer.from('<urn:x> <urn:p> ') })).toThrow();
    expect(lines(store)).toEqual(before);
  });

  it('drops a named graph, the default graph, or everything', (): void => {
    applier.apply(store, { kind: 'graphDrop', target: { kind: 'named', iri: 'urn:g' }});
    expect(lines(store)).toEqual([ 'urn:d urn:p default ', 'urn:h urn:p other urn:h' ]);
    applier.apply(store, { kind: 'graphDrop', target: { kind: 'default' }});
    expect(lines(store)).toEqual([ 'urn:h urn:p other urn:h' ]);
    applier.apply(store, { kind: 'graphDrop', target: { kind: 'named', iri: 'urn:absent' }});
    applier.apply(store, { kind: 'graphDrop', target: { kind: 'dataset' }});
    expect(lines(store)).toEqual([]);
  });

  it('refuses a graph IRI that could break out of the statement, changing nothing', (): void => {
    const before = lines(store);
    for (const iri of [ 'urn:g> } ; DROP ALL ; #', 'relative/path', 'urn:a b' ]) {
      expect(DatasetOperationApplier.isSafeIri(iri)).toBe(false);
      expect((): void => applier.apply(store, { kind: 'graphDrop', target: { kind: 'named', iri }})).toThrow(`Not an absolute IRI: ${iri}`);
    }
    expect(lines(store)).toEqual(before);
    expect(DatasetOperationApplier.isSafeIri('https://pod.example/a?b=c#d')).toBe(true);
  });
});
