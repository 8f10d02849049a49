import { type DatasetServer, startDatasetServer } from './support/datasetServer';
import { request } from './support/storeHttp';

const RESULTS = 'application/sparql-results+json';
const ASK = 'ASK { <urn:s> <urn:p> "o" }';
const INSERT = 'INSERT DATA { <urn:s> <urn:p> "o" }';
const FORM = 'application/x-www-form-urlencoded';

describe('DatasetServiceRouter', (): void => {
  let server: DatasetServer;

  beforeEach(async(): Promise<void> => {
    server = await startDatasetServer();
  });

  afterEach(async(): Promise<void> => {
    await server.close();
  });

  async function asked(path = '/ds/query'): Promise<boolean> {
    const answer = await request(`${server.url}${path}?query=${encodeURIComponent(ASK)}`, { headers: { accept: RESULTS }});
    return (JSON.parse(answer.body) as { boolean: boolean }).boolean;
  }

  it.each([
    [ 'an update body to /update', '/ds/update', 'application/sparql-update', INSERT ],
    [ 'an update form to /update', '/ds/update', FORM, `update=${encodeURIComponent(INSERT)}` ],
    [ 'an update body to the dataset', '/ds', 'application/sparql-update', INSERT ],
    [ 'an update form to the dataset', '/ds/', FORM, `update=${encodeURIComponent(INSERT)}` ],
    [ 'an update form to /sparql', '/ds/sparql', FORM, `update=${encodeURIComponent(INSERT)}` ],
  ])('routes %s', async(what, path, type, body): Promise<void> => {
    const answer = await request(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
    expect(answer.status).toBe(204);
    expect(await asked()).toBe(true);
  });

  it.each([
    [ 'a query in the URL of /query', 'GET', '/ds/query?query=ASK%7B%7D', undefined, undefined ],
    [ 'a query body to /query', 'POST', '/ds/query', 'application/sparql-query', 'ASK {}' ],
    [ 'a query form to /query', 'POST', '/ds/query', FORM, 'query=ASK%7B%7D' ],
    [ 'a query in the URL of the dataset', 'GET', '/ds?query=ASK%7B%7D', undefined, undefined ],
    [ 'a query body to the dataset', 'POST', '/ds', 'application/sparql-query', 'ASK {}' ],
    [ 'a query form to /sparql', 'POST', '/ds/sparql', FORM, 'query=ASK%7B%7D' ],
    [ 'a query in the URL of /sparql', 'GET', '/ds/sparql?query=ASK%7B%7D', undefined, undefined ],
  ])('routes %s', async(what, method, path, type, body): Promise<void> => {
    const answer = await request(`${server.url}${path}`, { method, headers: { accept: RESULTS, ...type ? { 'content-type': type } : {}}, body });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual(expect.objectContaining({ boolean: true }));
  });

  it('routes Graph Store requests to /data, /get and the dataset URL', async(): Promise<void> => {
    const turtle = { 'content-type': 'text/turtle' };
    expect((await request(`${server.url}/ds/data?default`, { method: 'POST', headers: turtle, body: '<urn:s> <urn:p> "o" .' })).status).toBe(204);
    expect(await asked()).toBe(true);
    const read = await request(`${server.url}/ds/get?default`, { headers: { accept: 'application/n-triples' }});
    expect(read.body).toContain('<urn:s> <urn:p> "o"');
    expect((await request(`${server.url}/ds/get?default`, { method: 'PUT', headers: turtle, body: '' })).status).toBe(405);
    expect((await request(`${server.url}/ds?default`, { method: 'DELETE' })).status).toBe(204);
    expect(await asked()).toBe(false);
    expect((await request(`${server.url}/ds`, { headers: { accept: 'application/n-quads' }})).status).toBe(200);
  });

  it('answers 404 for an unknown dataset or service', async(): Promise<void> => {
    const dataset = await request(`${server.url}/nope/query?query=ASK%7B%7D`);
    expect(dataset).toMatchObject({ status: 404 });
    expect(dataset.body).toContain('No such dataset: /nope');
    const service = await request(`${server.url}/ds/shiny`);
    expect(service.status).toBe(404);
    expect(service.body).toContain('No service "shiny" on dataset /ds');
  });

  it('refuses what a service cannot take, saying what it allows', async(): Promise<void> => {
    const form = await request(`${server.url}/ds`, { method: 'POST', headers: { 'content-type': FORM }, body: 'neither=1' });
    expect(form.status).toBe(400);
    expect(form.body).toContain('Form has neither "query" nor "update"');
    expect((await request(`${server.url}/ds/query`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(415);
    expect((await request(`${server.url}/ds/update`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(415);
    expect((await request(`${server.url}/ds/sparql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(415);
    const update = await request(`${server.url}/ds/update`);
    expect(update.status).toBe(405);
    expect(update.headers.get('allow')).toBe('POST');
    const query = await request(`${server.url}/ds/query`, { method: 'PUT', body: 'x' });
    expect(query.status).toBe(405);
    expect(query.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await request(`${server.url}/ds/sparql`, { method: 'DELETE' })).headers.get('allow')).toBe('GET, HEAD, POST');
  });
});
