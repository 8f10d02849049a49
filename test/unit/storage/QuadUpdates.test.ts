import { DataFactory, Parser } from 'n3';
import { Store } from 'oxigraph';
import { graphValuesOf, insertUpdateOf } from '../../../src/storage/QuadUpdates';
import { InvalidTermError } from '../../../src/storage/SparqlTerms';

const { blankNode, defaultGraph, literal, namedNode, quad } = DataFactory;
const p = namedNode('http://example.org/p');

describe('QuadUpdates', (): void => {
  it('makes one INSERT DATA that a SPARQL store runs into the same quads, graph by graph and the default graph', (): void => {
    const quads = [
      quad(namedNode('http://a/1'), p, literal('line\n"quoted"', 'en'), namedNode('http://a/1')),
      quad(namedNode('http://a/2'), p, literal('2', namedNode('http://www.w3.org/2001/XMLSchema#integer')), namedNode('meta:http://a/2')),
      quad(namedNode('http://a/1'), p, namedNode('http://a/2'), namedNode('http://a/1')),
      quad(namedNode('http://a/3'), p, literal('d'), defaultGraph()),
    ];
    const update = insertUpdateOf(quads);
    expect(update.startsWith('INSERT DATA {')).toBe(true);
    const store = new Store();
    store.update(update);
    const stored = new Parser({ format: 'N-Quads' }).parse(store.dump({ format: 'application/n-quads' }));
    expect(stored).toHaveLength(4);
    for (const entry of quads) {
      expect(stored.some((other): boolean => other.equals(entry))).toBe(true);
    }
  });

  it('uses INSERT … WHERE {} with blank nodes, one new node per label', (): void => {
    const update = insertUpdateOf([
      quad(namedNode('http://a/1'), p, blankNode('x'), namedNode('http://g')),
      quad(blankNode('x'), p, literal('v'), namedNode('http://g')),
    ]);
    expect(update).toMatch(/^INSERT \{ .* \} WHERE \{\}$/u);
    const store = new Store();
    store.update(update);
    const rows = store.query('SELECT ?o WHERE { GRAPH <http://g> { <http://a/1> ?p ?b . ?b ?p ?o } }') as Map<string, { value: string }>[];
    expect(rows.map((row): string => row.get('o')!.value)).toEqual([ 'v' ]);
  });

  it('never pastes an IRI that could break out of the query', (): void => {
    expect((): string => insertUpdateOf([ quad(namedNode('http://a/> } ; DROP ALL ; <x'), p, literal('v'), namedNode('http://g')) ]))
      .toThrow(InvalidTermError);
    expect((): string => graphValuesOf([ 'http://g/ok', 'http://g/> }' ])).toThrow(InvalidTermError);
    expect(graphValuesOf([ 'http://g/1', 'meta:http://g/1' ])).toBe('VALUES ?g { <http://g/1> <meta:http://g/1> }');
  });
});
