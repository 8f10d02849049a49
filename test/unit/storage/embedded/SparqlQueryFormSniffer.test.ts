import { SparqlQueryFormSniffer } from '../../../../src/storage/embedded/SparqlQueryFormSniffer';

describe('SparqlQueryFormSniffer', (): void => {
  const sniffer = new SparqlQueryFormSniffer();

  it.each([
    [ 'SELECT * WHERE { ?s ?p ?o }', 'SELECT' ],
    [ '  select ?s {}', 'SELECT' ],
    [ 'ASK {}', 'ASK' ],
    [ 'CONSTRUCT WHERE { ?s ?p ?o }', 'CONSTRUCT' ],
    [ 'DESCRIBE <http://x>', 'DESCRIBE' ],
    [ 'PREFIX ex: <http://example.org/>\nPREFIX : <http://x/> CONSTRUCT {} WHERE {}', 'CONSTRUCT' ],
    [ '# a comment with SELECT in it\nBASE <http://b/> prefix ex:<http://e/> ASK {}', 'ASK' ],
    [ 'PREFIX ex: <http://example.org/select> DESCRIBE ex:x', 'DESCRIBE' ],
  ])('finds the form of %p', (query, expected): void => {
    expect(sniffer.sniff(query)).toBe(expected);
  });

  it.each([
    'INSERT DATA {}',
    'PREFIX ex <http://broken> SELECT * {}',
    '',
    'SELECTED * {}',
  ])('gives up on %p', (query): void => {
    expect(sniffer.sniff(query)).toBeUndefined();
  });
});
