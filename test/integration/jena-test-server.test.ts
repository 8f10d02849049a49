/**
 * Proves the Jena test server (test/fixtures/jena-test-server) serves what the store tests lean
 * on: Fuseki's admin calls and URL layout, the SPARQL protocol in each of its forms, the Graph
 * Store Protocol, TDB2's union default graph, and data that outlives a crash.
 */
import { sharedServers } from '../support/env';
import { JENA_PASSWORD, JENA_USER, startJenaTestServer } from '../support/jena';
import { isAlive } from '../support/processes';
import { httpRequest, type HttpResult } from '../support/sparql';

const unique = (): string => `${Date.now()}-${Math.random().toString(36).slice(2)}`;
const AUTH = { authorization: `Basic ${Buffer.from(`${JENA_USER}:${JENA_PASSWORD}`).toString('base64')}` };
const FORM = 'application/x-www-form-urlencoded';

/** A service assembler as Fuseki takes it: a TDB2 dataset whose default graph in queries is the union of the named graphs. */
function assembler(name: string): string {
  return `@prefix fuseki: <http://jena.apache.org/fuseki#> .
@prefix tdb2: <http://jena.apache.org/2016/tdb#> .
<#service> a fuseki:Service ;
  fuseki:name "${name}" ;
  fuseki:endpoint [ fuseki:operation fuseki:query ; fuseki:name "query" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:update ; fuseki:name "update" ] ;
  fuseki:endpoint [ fuseki:operation fuseki:gsp-rw ; fuseki:name "data" ] ;
  fuseki:dataset <#dataset> .
<#dataset> a tdb2:DatasetTDB2 ; tdb2:unionDefaultGraph true .
`;
}

async function createDataset(base: string, name: string): Promise<HttpResult> {
  return httpRequest(`${base}/$/datasets`, { method: 'POST', headers: { ...AUTH, 'content-type': 'text/turtle' }, body: assembler(name) });
}

async function update(base: string, name: string, text: string): Promise<void> {
  const answer = await httpRequest(`${base}/${name}/update`, { method: 'POST', headers: { ...AUTH, 'content-type': FORM },
    body: `update=${encodeURIComponent(text)}` });
  expect(answer.status).toBe(204);
}

async function select(base: string, name: string, query: string): Promise<string[]> {
  const answer = await httpRequest(`${base}/${name}/query`, { method: 'POST',
    headers: { ...AUTH, 'content-type': FORM, accept: 'application/sparql-results+json' }, body: `query=${encodeURIComponent(query)}` });
  expect(answer.status).toBe(200);
  const rows = (JSON.parse(answer.body) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
  return rows.map((row) => Object.values(row).map((term) => term.value).join(' ')).sort();
}

describe('the shared Jena test server', () => {
  const dataset = `jena-${unique()}`;
  const base = (): string => sharedServers().jenaUrl;

  beforeAll(async () => {
    expect((await createDataset(base(), dataset)).status).toBe(200);
  });

  afterAll(async () => {
    await httpRequest(`${base()}/$/datasets/${dataset}`, { method: 'DELETE', headers: AUTH });
  });

  it('runs on loopback, answers /$/ping to anyone and everything else only with credentials', async () => {
    expect(isAlive(sharedServers().jenaPid)).toBe(true);
    expect(base()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await httpRequest(`${base()}/$/ping`)).status).toBe(200);
    expect((await httpRequest(`${base()}/$/datasets`)).status).toBe(401);
    expect((await httpRequest(`${base()}/${dataset}/query?query=${encodeURIComponent('ASK {}')}`)).status).toBe(401);
    expect((await httpRequest(`${base()}/$/datasets`, { headers: AUTH })).status).toBe(200);
  });

  it('describes a dataset as Fuseki does, refuses its name again (409), and makes and deletes one by the form', async () => {
    const described = await httpRequest(`${base()}/$/datasets/${dataset}`, { headers: AUTH });
    expect(described.status).toBe(200);
    const description = JSON.parse(described.body) as { 'ds.name': string; 'ds.services': { 'srv.type': string; 'srv.endpoints': string[] }[] };
    expect(description['ds.name']).toBe(`/${dataset}`);
    expect(description['ds.services']).toEqual(expect.arrayContaining([
      expect.objectContaining({ 'srv.type': 'query', 'srv.endpoints': [ 'query' ] }),
      expect.objectContaining({ 'srv.type': 'update', 'srv.endpoints': [ 'update' ] }),
      expect.objectContaining({ 'srv.type': 'gsp-rw', 'srv.endpoints': [ 'data' ] }),
    ]));
    expect((await createDataset(base(), dataset)).status).toBe(409);

    const byForm = `form-${unique()}`;
    const created = await httpRequest(`${base()}/$/datasets`, { method: 'POST', headers: { ...AUTH, 'content-type': FORM },
      body: `dbName=${byForm}&dbType=tdb2` });
    expect(created.status).toBe(200);
    expect((await httpRequest(`${base()}/$/datasets/${byForm}`, { headers: AUTH })).status).toBe(200);
    expect((await httpRequest(`${base()}/$/datasets/${byForm}`, { method: 'DELETE', headers: AUTH })).status).toBe(200);
    expect((await httpRequest(`${base()}/$/datasets/${byForm}`, { headers: AUTH })).status).toBe(404);
    expect((await httpRequest(`${base()}/${byForm}/query?query=${encodeURIComponent('ASK {}')}`, { headers: AUTH })).status).toBe(404);
  });

  it('takes updates and queries in every form of the protocol, only on the endpoints that declare them', async () => {
    const graph = `urn:jena-test:${unique()}`;
    await update(base(), dataset, `INSERT DATA { GRAPH <${graph}> { <urn:s> <urn:p> "by form" } }`);
    const direct = await httpRequest(`${base()}/${dataset}/update`, { method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/sparql-update' }, body: `INSERT DATA { GRAPH <${graph}> { <urn:s> <urn:p> "direct" } }` });
    expect(direct.status).toBe(204);

    const query = `SELECT ?o WHERE { GRAPH <${graph}> { <urn:s> <urn:p> ?o } } ORDER BY ?o`;
    const json = { ...AUTH, accept: 'application/sparql-results+json' };
    const answers = await Promise.all([
      httpRequest(`${base()}/${dataset}/query?query=${encodeURIComponent(query)}`, { headers: json }),
      httpRequest(`${base()}/${dataset}/query`, { method: 'POST', headers: { ...json, 'content-type': FORM }, body: `query=${encodeURIComponent(query)}` }),
      httpRequest(`${base()}/${dataset}/query`, { method: 'POST', headers: { ...json, 'content-type': 'application/sparql-query' }, body: query }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const rows = (JSON.parse(answer.body) as { results: { bindings: { o: { value: string } }[] } }).results.bindings;
      expect(rows.map((row) => row.o.value)).toEqual([ 'by form', 'direct' ]);
    }
    // The query endpoint takes no update, and the dataset URL declares no operation here.
    const misplaced = await httpRequest(`${base()}/${dataset}/query`, { method: 'POST', headers: { ...AUTH, 'content-type': FORM },
      body: `update=${encodeURIComponent(`INSERT DATA { <urn:s> <urn:p> "misplaced" }`)}` });
    expect(misplaced.status).toBeGreaterThanOrEqual(400);
    expect(await select(base(), dataset, 'SELECT ?o WHERE { ?s ?p ?o FILTER(?o = "misplaced") }')).toEqual([]);
    expect((await httpRequest(`${base()}/${dataset}?query=${encodeURIComponent(query)}`, { headers: AUTH })).status).toBe(404);
  });

  it('answers in the format the Accept header asks for', async () => {
    const graph = `urn:jena-test:${unique()}`;
    await update(base(), dataset, `INSERT DATA { GRAPH <${graph}> { <urn:s> <urn:p> "formats" } }`);
    const ask = async(accept: string, query: string): Promise<HttpResult> =>
      httpRequest(`${base()}/${dataset}/query?query=${encodeURIComponent(query)}`, { headers: { ...AUTH, accept } });

    const xml = await ask('application/sparql-results+xml', `SELECT ?o WHERE { GRAPH <${graph}> { ?s ?p ?o } }`);
    expect(xml.contentType).toMatch(/^application\/sparql-results\+xml/);
    expect(xml.body).toContain('<literal>formats</literal>');
    const construct = `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${graph}> { ?s ?p ?o } }`;
    const ntriples = await ask('application/n-triples, text/turtle;q=0.9', construct);
    expect(ntriples.contentType).toMatch(/^application\/n-triples/);
    expect(ntriples.body.trim()).toBe('<urn:s> <urn:p> "formats" .');
    const turtle = await ask('text/turtle, application/n-triples;q=0.5', construct);
    expect(turtle.contentType).toMatch(/^text\/turtle/);
    const jsonld = await ask('application/ld+json', construct);
    expect(jsonld.contentType).toMatch(/^application\/ld\+json/);
    expect(JSON.stringify(JSON.parse(jsonld.body))).toContain('formats');
  });

  it('gives queries the union of the named graphs as their default graph, and keeps the stored default graph apart', async () => {
    const subject = `urn:jena-test:${unique()}`;
    await update(base(), dataset, `INSERT DATA { GRAPH <${subject}-graph> { <${subject}> <urn:p> "named" } <${subject}> <urn:p> "stored default" }`);
    expect(await select(base(), dataset, `SELECT ?o WHERE { <${subject}> <urn:p> ?o }`)).toEqual([ 'named' ]);
    const storedDefault = await httpRequest(`${base()}/${dataset}/data?default`, { headers: { ...AUTH, accept: 'application/n-triples' } });
    expect(storedDefault.status).toBe(200);
    expect(storedDefault.body).toContain('"stored default"');
    expect(storedDefault.body).not.toContain('"named"');
  });

  it('serves the Graph Store Protocol: PUT makes (201) or replaces a graph, POST adds, GET reads, DELETE removes', async () => {
    const graph = `urn:jena-test:${unique()}`;
    const url = `${base()}/${dataset}/data?graph=${encodeURIComponent(graph)}`;
    const send = async(method: string, body: string): Promise<number> =>
      (await httpRequest(url, { method, headers: { ...AUTH, 'content-type': 'text/turtle' }, body })).status;
    const read = async(): Promise<HttpResult> => httpRequest(url, { headers: { ...AUTH, accept: 'application/n-triples' } });

    expect((await read()).status).toBe(404);
    expect(await send('PUT', '<urn:s> <urn:p> "first" .')).toBe(201);
    expect(await send('PUT', '<urn:s> <urn:p> "second" .')).toBe(200);
    expect(await send('POST', '<urn:s> <urn:p> "third" .')).toBe(200);
    expect((await read()).body.trim().split('\n').sort()).toEqual([ '<urn:s> <urn:p> "second" .', '<urn:s> <urn:p> "third" .' ]);
    expect(await send('PUT', 'this is not turtle')).toBe(400);
    expect((await httpRequest(url, { method: 'DELETE', headers: AUTH })).status).toBe(204);
    expect((await read()).status).toBe(404);
    expect((await httpRequest(url, { method: 'DELETE', headers: AUTH })).status).toBe(404);
  });

  it('reports a malformed query or update as 400, not as an empty answer', async () => {
    const query = await httpRequest(`${base()}/${dataset}/query?query=${encodeURIComponent('SELECT WHERE {')}`, { headers: AUTH });
    expect(query.status).toBe(400);
    expect(query.body).toMatch(/^Error 400: Parse error/);
    const broken = await httpRequest(`${base()}/${dataset}/update`, { method: 'POST', headers: { ...AUTH, 'content-type': FORM },
      body: `update=${encodeURIComponent('INSERT DATA {')}` });
    expect(broken.status).toBe(400);
  });
});

describe('a private Jena test server', () => {
  it('keeps committed data and its datasets across kill -9 and a restart', async () => {
    const jena = await startJenaTestServer();
    try {
      const dataset = 'durable';
      expect((await createDataset(jena.baseUrl, dataset)).status).toBe(200);
      await update(jena.baseUrl, dataset, 'INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> "before crash" } }');
      const oldPid = jena.pid;
      await jena.kill9();
      expect(isAlive(oldPid)).toBe(false);
      await jena.restart();
      expect(await select(jena.baseUrl, dataset, 'SELECT ?o WHERE { <urn:s> <urn:p> ?o }')).toEqual([ 'before crash' ]);
    } finally {
      await jena.stop();
    }
    expect(isAlive(jena.pid)).toBe(false);
  });
});
