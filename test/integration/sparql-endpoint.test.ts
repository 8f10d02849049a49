/**
 * The read-only /sparql endpoint (config/ldp-sparql.json) end to end: the real server over real
 * sockets, against the embedded store, Virtuoso and Fuseki.
 */
import * as path from 'node:path';
import { Parser as N3Parser } from 'n3';
import { sharedServers } from '../support/env';
import { startFedpod, type FedpodServer } from '../support/fedpod';
import { REPO_ROOT } from '../support/processes';
import { httpRequest, type HttpResult } from '../support/sparql';

const CONFIG = path.join(REPO_ROOT, 'config', 'ldp-sparql.json');
const TEXT = 'http://schema.org/text';

interface Store {
  name: string;
  options: () => { sparqlEndpoint?: string };
}

const stores: Store[] = [
  { name: 'embedded store', options: () => ({}) },
  { name: 'Virtuoso', options: () => ({ sparqlEndpoint: sharedServers().sparqlEndpoint }) },
  { name: 'Fuseki', options: () => ({ sparqlEndpoint: sharedServers().fusekiUrl }) },
];

const unique = (): string => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

describe.each(stores)('/sparql on $name', (store) => {
  let server: FedpodServer;
  let endpoint: string;
  let note: string;
  const marker = `sparql endpoint marker ${unique()}`;
  // Absolute: CSS resolves a POSTed body's relative IRIs against the container, not the new resource.
  const subject = `http://example.org/sparql-endpoint-test/${unique()}`;

  const get = (query: string, accept = 'application/sparql-results+json'): Promise<HttpResult> =>
    httpRequest(`${endpoint}?query=${encodeURIComponent(query)}`, { headers: { accept } });

  const postForm = (fields: Record<string, string>, accept = 'application/sparql-results+json'): Promise<HttpResult> =>
    httpRequest(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
      body: new URLSearchParams(fields).toString(),
    });

  async function noteTexts(): Promise<string[]> {
    const reply = await get(`SELECT ?text WHERE { <${subject}> <${TEXT}> ?text }`);
    expect(reply.status).toBe(200);
    const json = JSON.parse(reply.body) as { results: { bindings: { text: { value: string } }[] } };
    return json.results.bindings.map((row) => row.text.value).sort();
  }

  beforeAll(async () => {
    server = await startFedpod({ config: CONFIG, ...store.options() });
    endpoint = `${server.baseUrl}sparql`;
    const created = await httpRequest(`${server.baseUrl}notes/`, {
      method: 'POST',
      headers: { 'content-type': 'text/turtle' },
      body: `<${subject}> <${TEXT}> ${JSON.stringify(marker)} .`,
    });
    expect(created.status).toBe(201);
    // httpRequest does not return headers: find the note through the container.
    const listing = await httpRequest(`${server.baseUrl}notes/`, { headers: { accept: 'text/turtle' } });
    const contained = new N3Parser({ baseIRI: `${server.baseUrl}notes/` })
      .parse(listing.body)
      .filter((quad) => quad.predicate.value === 'http://www.w3.org/ns/ldp#contains')
      .map((quad) => quad.object.value);
    expect(contained).toHaveLength(1);
    note = contained[0];
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('finds a posted note\'s content with SELECT (GET, JSON by default)', async () => {
    const reply = await get(`SELECT ?s ?text WHERE { ?s <${TEXT}> ?text FILTER(?text = ${JSON.stringify(marker)}) }`, '*/*');
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^application\/sparql-results\+json/);
    const json = JSON.parse(reply.body) as { results: { bindings: Record<string, { type: string; value: string }>[] } };
    expect(json.results.bindings).toEqual([
      { s: { type: 'uri', value: subject }, text: { type: 'literal', value: marker } },
    ]);
  });

  it('finds each resource in its own named graph', async () => {
    const reply = await get(`SELECT ?g WHERE { GRAPH ?g { <${subject}> <${TEXT}> ?text } }`, 'text/csv');
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^text\/csv/);
    expect(reply.body).toBe(`g\r\n${note}\r\n`);
  });

  it('answers a form POST in TSV and XML, and ASK', async () => {
    const query = `SELECT ?text WHERE { <${subject}> <${TEXT}> ?text }`;
    const tsv = await postForm({ query }, 'text/tab-separated-values');
    expect(tsv.status).toBe(200);
    expect(tsv.body).toBe(`?text\n${JSON.stringify(marker)}\n`);
    const xml = await postForm({ query }, 'application/sparql-results+xml');
    expect(xml.body).toContain(`<literal>${marker}</literal>`);
    const ask = await httpRequest(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
      body: `ASK { <${subject}> <${TEXT}> ${JSON.stringify(marker)} }`,
    });
    expect(JSON.parse(ask.body)).toEqual({ head: {}, boolean: true });
  });

  it('answers CONSTRUCT in Turtle by default and in N-Triples when asked', async () => {
    const query = `CONSTRUCT { ?s <${TEXT}> ?text } WHERE { GRAPH <${note}> { ?s <${TEXT}> ?text } }`;
    const turtle = await get(query, '*/*');
    expect(turtle.status).toBe(200);
    expect(turtle.contentType).toMatch(/^text\/turtle/);
    expect(new N3Parser().parse(turtle.body).map((quad) => quad.object.value)).toEqual([marker]);
    const nt = await get(query, 'application/n-triples');
    expect(nt.contentType).toMatch(/^application\/n-triples/);
    const triples = new N3Parser({ format: 'application/n-triples' }).parse(nt.body);
    expect(triples.map((quad) => [quad.subject.value, quad.predicate.value, quad.object.value])).toEqual([
      [subject, TEXT, marker],
    ]);
  });

  it('refuses updates with 403 and changes nothing', async () => {
    const insert = `INSERT DATA { GRAPH <${note}> { <${subject}> <${TEXT}> "injected" } }`;
    const attempts = [
      await get(insert),
      await postForm({ update: insert }),
      await postForm({ query: insert }),
      await postForm({ update: `DROP GRAPH <${note}>` }),
      await get(`DELETE WHERE { GRAPH <${note}> { ?s ?p ?o } }`),
      await get('CLEAR ALL'),
      await httpRequest(endpoint, { method: 'POST', headers: { 'content-type': 'application/sparql-update' }, body: insert }),
    ];
    for (const reply of attempts) {
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body)).toEqual(expect.objectContaining({ error: 'update_forbidden' }));
    }
    expect(await noteTexts()).toEqual([marker]);
  });

  it('refuses calls into the store\'s internals and federated queries with 403', async () => {
    const internal = await get(`SELECT (<sql:SPARQL_INSERT_QUAD_DICT_CONTENT>(<${note}>) AS ?x) WHERE {}`);
    expect(internal.status).toBe(403);
    expect(JSON.parse(internal.body)).toMatchObject({ error: 'function_forbidden' });
    const service = await get('SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }');
    expect(service.status).toBe(403);
    expect(await noteTexts()).toEqual([marker]);
  });

  it('answers 400 to an invalid query', async () => {
    const reply = await get('SELECT ?s WHERE { ?s ?p');
    expect(reply.status).toBe(400);
    expect(reply.contentType).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toMatchObject({ error: 'invalid_query' });
  });

  it('answers a service description to GET without a query', async () => {
    const reply = await httpRequest(endpoint);
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^text\/turtle/);
    expect(reply.body).toContain('sd:SPARQL11Query');
  });
});
