import { type DatasetServer, startDatasetServer } from './support/datasetServer';
import { request, sparqlUpdate } from './support/storeHttp';

const RESULTS = 'application/sparql-results+json';

describe('SparqlProtocolHandler', (): void => {
  let server: DatasetServer;

  beforeAll(async(): Promise<void> => {
    server = await startDatasetServer('read');
    await sparqlUpdate(`${server.url}/ds/update`,
      'INSERT DATA { <urn:d> <urn:p> "default" . GRAPH <urn:g1> { <urn:a> <urn:p> "one" } GRAPH <urn:g2> { <urn:b> <urn:p> "two" } }');
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  const query = async(text: string, extra = '', headers: Record<string, string> = {}): ReturnType<typeof request> =>
    request(`${server.url}/ds/query?query=${encodeURIComponent(text)}${extra}`, { headers });

  it('answers a SELECT in the negotiated results format', async(): Promise<void> => {
    const json = await query('SELECT ?o WHERE { ?s ?p ?o }', '', { accept: RESULTS });
    expect(json.contentType).toBe(`${RESULTS}; charset=utf-8`);
    // The default graph is the union of all graphs, as Fedpod's layout needs.
    expect((JSON.parse(json.body) as { results: { bindings: unknown[] } }).results.bindings).toHaveLength(3);
    const csv = await query('SELECT ?o WHERE { ?s ?p ?o }', '', { accept: 'text/csv' });
    expect(csv.contentType).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('default');
  });

  it('takes the format parameter over the Accept header, with its short names', async(): Promise<void> => {
    const answer = await query('SELECT ?o WHERE { ?s ?p ?o }', '&format=json', { accept: 'text/csv' });
    expect(answer.contentType).toBe(`${RESULTS}; charset=utf-8`);
  });

  it('answers CONSTRUCT and DESCRIBE as RDF, even when the form is hidden from the sniffer', async(): Promise<void> => {
    const turtle = await query('CONSTRUCT WHERE { ?s ?p ?o }', '', { accept: 'text/turtle' });
    expect(turtle.contentType).toBe('text/turtle; charset=utf-8');
    expect(turtle.body).toContain('default');
    const hidden = await query('# CONSTRUCT in a comment first\nPREFIX x: <urn:x>\nCONSTRUCT WHERE { ?s ?p ?o }', '',
      { accept: `${RESULTS}, application/n-triples;q=0.5` });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toContain('<urn:d> <urn:p> "default"');
  });

  it('queries the graphs named by default-graph-uri and named-graph-uri', async(): Promise<void> => {
    const values = async(text: string, extra: string): Promise<string[]> => {
      const answer = await query(text, extra, { accept: RESULTS });
      return (JSON.parse(answer.body) as { results: { bindings: { o: { value: string } }[] } }).results.bindings
        .map((binding): string => binding.o.value).sort();
    };
    expect(await values('SELECT ?o WHERE { ?s ?p ?o }', '&default-graph-uri=urn:g1&default-graph-uri=urn:g2')).toEqual([ 'one', 'two' ]);
    expect(await values('SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }', '&named-graph-uri=urn:g2')).toEqual([ 'two' ]);
    const unsafe = await query('SELECT * {}', `&default-graph-uri=${encodeURIComponent('urn:x> }')}`);
    expect(unsafe.status).toBe(400);
    expect(unsafe.body).toContain('Not an absolute IRI');
  });

  it('answers 400 for a missing query and for one the engine refuses', async(): Promise<void> => {
    const missing = await request(`${server.url}/ds/query`);
    expect(missing.status).toBe(400);
    expect(missing.body).toContain('Missing query');
    expect((await query('SELECT WHERE nonsense')).status).toBe(400);
  });

  it('runs updates for authenticated clients only, refusing what it would change silently', async(): Promise<void> => {
    const anonymous = await request(`${server.url}/ds/update`, { method: 'POST', auth: null,
      headers: { 'content-type': 'application/sparql-update' }, body: 'INSERT DATA { <urn:x> <urn:p> "anon" }' });
    expect(anonymous.status).toBe(401);
    const using = await request(`${server.url}/ds/update?using-graph-uri=urn:g1`, { method: 'POST',
      headers: { 'content-type': 'application/sparql-update' }, body: 'DELETE WHERE { ?s ?p ?o }' });
    expect(using.status).toBe(400);
    expect(using.body).toContain('using-graph-uri / using-named-graph-uri are not supported');
    const empty = await request(`${server.url}/ds/update`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'update=' });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('Missing update');
    const count = await query('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }', '', { accept: RESULTS });
    expect((JSON.parse(count.body) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0].n.value).toBe('3');
  });
});
