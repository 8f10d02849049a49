import { checkQuery } from '../../../../src/handlers/sparql/SparqlQueryGuard';
import { rejection } from '../../../support/rejection';

const BASE = 'https://pod.example/';

async function refusal(text: string, dataset?: { defaultGraphs: string[]; namedGraphs: string[] }): Promise<{ status: number; code: string; message: string }> {
  const error = await rejection((async(): Promise<unknown> => checkQuery(text, BASE, dataset))()) as
    { statusCode: number; errorCode: string; message: string };
  return { status: error.statusCode, code: error.errorCode, message: error.message };
}

describe('SparqlQueryGuard', (): void => {
  describe('checkQuery', (): void => {
    it('lets the four query forms through, as regenerated text', (): void => {
      expect(checkQuery('SELECT ?s WHERE { ?s ?p ?o } LIMIT 5', BASE)).toEqual({ form: 'SELECT',
        text: expect.stringMatching(/^SELECT \?s WHERE \{ \?s \?p \?o\. \}\s+LIMIT 5$/u) });
      expect(checkQuery('ASK { ?s ?p ?o }', BASE).form).toBe('ASK');
      expect(checkQuery('CONSTRUCT WHERE { ?s ?p ?o }', BASE).form).toBe('CONSTRUCT');
      expect(checkQuery('DESCRIBE <https://pod.example/a>', BASE).form).toBe('DESCRIBE');
    });

    it('resolves relative IRIs against the base and leaves no BASE in the text', (): void => {
      const { text } = checkQuery('BASE <https://elsewhere.example/> SELECT * WHERE { <notes/> ?p ?o }', BASE);
      expect(text).toContain('<https://elsewhere.example/notes/>');
      expect(text).not.toMatch(/BASE/iu);
      expect(checkQuery('SELECT * WHERE { <notes/> ?p ?o }', BASE).text).toContain('<https://pod.example/notes/>');
    });

    it('allows XSD casts and the standard function libraries', (): void => {
      expect(checkQuery('PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> SELECT (xsd:integer("1") AS ?n) WHERE {}', BASE).form).toBe('SELECT');
      expect(checkQuery('PREFIX fn: <http://www.w3.org/2005/xpath-functions#> SELECT (fn:upper-case("a") AS ?u) WHERE {}', BASE).form)
        .toBe('SELECT');
    });

    it('answers 400 invalid_query to text that is not SPARQL', async(): Promise<void> => {
      const answer = await refusal('SELEKT * WHERE {}');
      expect(answer).toMatchObject({ status: 400, code: 'invalid_query' });
      expect(answer.message).toMatch(/^The query is not valid SPARQL 1\.1: /u);
      expect(answer.message.length).toBeLessThanOrEqual('The query is not valid SPARQL 1.1: '.length + 400);
    });

    it('answers 403 update_forbidden to any update', async(): Promise<void> => {
      for (const update of [ 'INSERT DATA { <a:b> <a:c> <a:d> }', 'DELETE WHERE { ?s ?p ?o }', 'CLEAR ALL', 'DROP GRAPH <https://pod.example/>',
        'LOAD <https://ex.example/data.ttl>' ]) {
        expect(await refusal(update)).toMatchObject({ status: 403, code: 'update_forbidden' });
      }
    });

    it('answers 403 to SERVICE, extension functions and store-internal IRIs, wherever they are', async(): Promise<void> => {
      expect(await refusal('SELECT * WHERE { SERVICE <https://ex.example/sparql> { ?s ?p ?o } }'))
        .toMatchObject({ status: 403, code: 'service_forbidden' });
      expect(await refusal('PREFIX ex: <https://ex.example/fn#> SELECT (ex:run("x") AS ?r) WHERE {}')).toEqual({ status: 403,
        code: 'function_forbidden', message: 'The extension function <https://ex.example/fn#run> is not allowed on this endpoint.' });
      expect(await refusal('SELECT * WHERE { ?s <bif:contains> "x" }')).toEqual({ status: 403, code: 'forbidden_iri',
        message: 'The IRI <bif:contains> names a store internal and is not allowed.' });
      expect(await refusal('SELECT * WHERE { FILTER(?x = <SQL:exec>) }')).toMatchObject({ code: 'forbidden_iri' });
      expect(await refusal('SELECT * WHERE { OPTIONAL { ?s ?p <java:lang.Runtime> } }')).toMatchObject({ code: 'forbidden_iri' });
    });

    it('replaces the query\'s dataset with the protocol\'s graphs', (): void => {
      const { text } = checkQuery('SELECT * FROM <https://pod.example/other> WHERE { ?s ?p ?o }', BASE,
        { defaultGraphs: [ 'https://pod.example/a' ], namedGraphs: [ 'https://pod.example/b' ]});
      expect(text).toContain('FROM <https://pod.example/a>');
      expect(text).toContain('FROM NAMED <https://pod.example/b>');
      expect(text).not.toContain('other');
      expect(checkQuery('SELECT * FROM <https://pod.example/kept> WHERE { ?s ?p ?o }', BASE, { defaultGraphs: [], namedGraphs: []}).text)
        .toContain('FROM <https://pod.example/kept>');
    });

    it('refuses protocol graphs that are not absolute IRIs, or name store internals', async(): Promise<void> => {
      expect(await refusal('SELECT * WHERE { ?s ?p ?o }', { defaultGraphs: [ 'relative/graph' ], namedGraphs: []})).toEqual({ status: 400,
        code: 'invalid_graph_iri', message: 'The graph IRI "relative/graph" is not an absolute IRI.' });
      expect(await refusal('SELECT * WHERE { ?s ?p ?o }', { defaultGraphs: [], namedGraphs: [ 'https://a.example/x y' ]}))
        .toMatchObject({ code: 'invalid_graph_iri' });
      expect(await refusal('SELECT * WHERE { ?s ?p ?o }', { defaultGraphs: [ 'sql:graph' ], namedGraphs: []}))
        .toMatchObject({ status: 403, code: 'forbidden_iri' });
    });
  });
});
