import { type DatasetServer, startDatasetServer } from './support/datasetServer';
import { request } from './support/storeHttp';

const TURTLE = { 'content-type': 'text/turtle' };

describe('GraphStoreHandler', (): void => {
  let server: DatasetServer;

  beforeEach(async(): Promise<void> => {
    server = await startDatasetServer('read');
  });

  afterEach(async(): Promise<void> => {
    await server.close();
  });

  const data = (query: string): string => `${server.url}/ds/data${query}`;
  const graph = (iri: string): string => data(`?graph=${encodeURIComponent(iri)}`);

  it('creates a graph with PUT (201), replaces it (204), and reads it back, relative IRIs against the graph', async(): Promise<void> => {
    expect((await request(graph('https://pod.example/g'), { method: 'PUT', headers: TURTLE, body: '<doc> <urn:p> "one" .' })).status).toBe(201);
    expect((await request(graph('https://pod.example/g'), { method: 'PUT', headers: TURTLE, body: '<doc> <urn:p> "two" .' })).status).toBe(204);
    const read = await request(graph('https://pod.example/g'), { headers: { accept: 'application/n-triples' }});
    expect(read.contentType).toBe('application/n-triples; charset=utf-8');
    expect(read.body.trim()).toBe('<https://pod.example/doc> <urn:p> "two" .');
  });

  it('adds with POST, to the default graph too, and drops with DELETE', async(): Promise<void> => {
    await request(data('?default'), { method: 'POST', headers: TURTLE, body: '<urn:a> <urn:p> "1" .' });
    await request(data('?default'), { method: 'POST', headers: { 'content-type': 'application/n-triples' }, body: '<urn:b> <urn:p> "2" .\n' });
    const read = await request(data('?default'), { headers: { accept: 'application/n-triples' }});
    expect(read.body.trim().split('\n')).toHaveLength(2);
    expect((await request(data('?default'), { method: 'DELETE' })).status).toBe(204);
    expect((await request(data('?default'), { headers: { accept: 'application/n-triples' }})).body.trim()).toBe('');
  });

  it('takes quads for the whole dataset, and reads the dataset as quads', async(): Promise<void> => {
    expect((await request(data(''), { method: 'POST', headers: { 'content-type': 'application/n-quads' },
      body: '<urn:s> <urn:p> "q" <urn:g> .\n' })).status).toBe(204);
    const dataset = await request(data(''), { headers: { accept: 'application/n-quads' }});
    expect(dataset.body).toContain('<urn:s> <urn:p> "q" <urn:g>');
  });

  it.each([
    [ 'a graph that does not exist', 'GET', '?graph=urn:absent', {}, undefined, 404, 'No such graph: <urn:absent>' ],
    [ 'a drop of a graph that does not exist', 'DELETE', '?graph=urn:absent', {}, undefined, 404, 'No such graph' ],
    [ 'a drop of the whole dataset', 'DELETE', '', {}, undefined, 405, 'DELETE of the whole dataset is not allowed' ],
    [ 'both graph and default', 'GET', '?graph=urn:g&default', {}, undefined, 400, 'Use either ?graph= or ?default' ],
    [ 'a relative graph name', 'GET', '?graph=relative', {}, undefined, 400, 'Graph name must be an absolute IRI' ],
    [ 'an unknown media type', 'PUT', '?default', { 'content-type': 'text/plain' }, 'x', 415, 'Unsupported RDF media type "text/plain"' ],
    [ 'quads into one graph', 'PUT', '?default', { 'content-type': 'application/n-quads' }, '', 400, 'holds quads' ],
    [ 'a PATCH', 'PATCH', '?default', {}, 'x', 405, 'Method PATCH not allowed here' ],
  ])('refuses %s', async(what, method, query, headers, body, status, message): Promise<void> => {
    const answer = await request(data(query), { method, headers, body });
    expect(answer.status).toBe(status);
    expect(answer.body).toContain(message);
  });

  it('leaves a graph whole when a replacement does not parse', async(): Promise<void> => {
    await request(graph('urn:g'), { method: 'PUT', headers: TURTLE, body: '<urn:a> <urn:p> "kept" .' });
    expect((await request(graph('urn:g'), { method: 'PUT', headers: TURTLE, body: '<urn:a> <urn:p> ' })).status).toBe(400);
    expect((await request(graph('urn:g'), { headers: { accept: 'application/n-triples' }})).body).toContain('"kept"');
  });

  it('lets anonymous clients read but not write, and serves reads only on /get', async(): Promise<void> => {
    await request(graph('urn:g'), { method: 'PUT', headers: TURTLE, body: '<urn:a> <urn:p> "x" .' });
    expect((await request(graph('urn:g'), { auth: null })).status).toBe(200);
    expect((await request(graph('urn:g'), { method: 'DELETE', auth: null })).status).toBe(401);
    const readOnly = await request(`${server.url}/ds/get?graph=urn:g`, { method: 'DELETE' });
    expect(readOnly.status).toBe(405);
    expect(readOnly.headers.get('allow')).toBe('GET, HEAD');
    expect((await request(graph('urn:g'))).status).toBe(200);
  });
});
