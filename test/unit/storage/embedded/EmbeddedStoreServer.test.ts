import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SparqlEndpointFetcher } from 'fetch-sparql-endpoint';
import type { EmbeddedStoreHandle } from '../../../../src/storage/embedded';
import { runEmbeddedStore } from '../../../../src/storage/embedded';
import { ADMIN_AUTH, createDataset, request, select, sparqlUpdate } from './support/storeHttp';

const EX = 'http://example.org/';

async function readAll<T>(stream: NodeJS.ReadableStream): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream as AsyncIterable<T>) {
    items.push(item);
  }
  return items;
}

describe('EmbeddedStoreServer (HTTP, in-thread)', (): void => {
  let dataDir: string;
  let store: EmbeddedStoreHandle;
  let base: string;
  let ds: string;

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-embedded-http-'));
    store = await runEmbeddedStore({ port: 0, dataDir });
    base = store.url;
    expect((await createDataset(base, 'localData')).status).toBe(200);
    ds = `${base}/localData`;
  });

  afterEach(async(): Promise<void> => {
    await store.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe('admin API', (): void => {
    it('answers ping without credentials', async(): Promise<void> => {
      const response = await request(`${base}/$/ping`, { auth: null });
      expect(response.status).toBe(200);
    });

    it('lists datasets in Fuseki JSON shape and describes one', async(): Promise<void> => {
      const list = await request(`${base}/$/datasets`);
      expect(list.status).toBe(200);
      const parsed = JSON.parse(list.body) as { datasets: { 'ds.name': string }[] };
      expect(parsed.datasets.map((entry): string => entry['ds.name'])).toEqual([ '/localData' ]);
      const one = await request(`${base}/$/datasets/localData`);
      expect(one.status).toBe(200);
      expect((JSON.parse(one.body) as { 'ds.name': string })['ds.name']).toBe('/localData');
      expect((await request(`${base}/$/datasets/nope`)).status).toBe(404);
    });

    it('refuses a duplicate (409), a missing name (400) and an assembler body (400)', async(): Promise<void> => {
      expect((await createDataset(base, '/localData')).status).toBe(409);
      const missing = await request(`${base}/$/datasets`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'dbType=tdb2',
      });
      expect(missing.status).toBe(400);
      const assembler = await request(`${base}/$/datasets`, {
        method: 'POST',
        headers: { 'content-type': 'text/turtle' },
        body: '<#service> a <http://jena.apache.org/fuseki#Service> .',
      });
      expect(assembler.status).toBe(400);
      expect((await createDataset(base, 'bad name')).status).toBe(400);
    });

    it('deletes a dataset; its endpoints then answer 404', async(): Promise<void> => {
      expect((await request(`${base}/$/datasets/localData`, { method: 'DELETE' })).status).toBe(200);
      expect((await request(`${base}/$/datasets/localData`, { method: 'DELETE' })).status).toBe(404);
      expect((await request(`${ds}/query?query=${encodeURIComponent('ASK {}')}`)).status).toBe(404);
      // Re-creating the name starts empty.
      expect((await createDataset(base, 'localData')).status).toBe(200);
      expect(await select(ds, 'SELECT * WHERE { ?s ?p ?o }')).toEqual([]);
    });

    it('answers 404 for an unknown dataset', async(): Promise<void> => {
      const response = await request(`${base}/unknown/query?query=${encodeURIComponent('ASK {}')}`);
      expect(response.status).toBe(404);
    });
  });

  describe('authentication', (): void => {
    it('answers 401 with WWW-Authenticate when credentials are missing or wrong', async(): Promise<void> => {
      const missing = await request(`${ds}/query?query=${encodeURIComponent('ASK {}')}`, { auth: null });
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Basic realm=/u);
      const wrong = await request(`${ds}/query?query=${encodeURIComponent('ASK {}')}`, {
        auth: `Basic ${Buffer.from('admin:wrong').toString('base64')}`,
      });
      expect(wrong.status).toBe(401);
      const update = await request(ds, {
        method: 'POST',
        auth: null,
        headers: { 'content-type': 'application/sparql-update' },
        body: `INSERT DATA { <${EX}s> <${EX}p> 1 }`,
      });
      expect(update.status).toBe(401);
      expect(await select(ds, 'SELECT * WHERE { ?s ?p ?o }')).toEqual([]);
      expect((await request(`${base}/$/datasets`, { auth: null })).status).toBe(401);
    });
  });

  describe('SPARQL protocol', (): void => {
    it('round-trips an update and a query through POST /{ds}', async(): Promise<void> => {
      const update = await sparqlUpdate(ds, `INSERT DATA { <${EX}s> <${EX}p> "hello" }`);
      expect(update.status).toBe(204);
      const bindings = await select(ds, `SELECT ?o WHERE { <${EX}s> <${EX}p> ?o }`);
      expect(bindings).toEqual([{ o: { type: 'literal', value: 'hello' }}]);
    });

    it('accepts updates as a form on /{ds}/update and queries on /{ds}/query and /{ds}/sparql', async(): Promise<void> => {
      const update = await request(`${ds}/update`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ update: `INSERT DATA { <${EX}a> <${EX}p> <${EX}b> }` }).toString(),
      });
      expect(update.status).toBe(204);
      const query = encodeURIComponent(`ASK { <${EX}a> <${EX}p> <${EX}b> }`);
      for (const url of [ `${ds}/query?query=${query}`, `${ds}/sparql?query=${query}`, `${ds}?query=${query}` ]) {
        const response = await request(url);
        expect(response.status).toBe(200);
        expect(response.contentType).toMatch(/^application\/sparql-results\+json/u);
        expect(JSON.parse(response.body)).toEqual({ head: {}, boolean: true });
      }
      const direct = await request(`${ds}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: `SELECT ?o WHERE { <${EX}a> ?p ?o }`,
      });
      expect(direct.status).toBe(200);
      expect(direct.body).toContain(`${EX}b`);
    });

    it('uses the union of all graphs as the default graph of queries', async(): Promise<void> => {
      await sparqlUpdate(ds, `INSERT DATA { GRAPH <${EX}g1> { <${EX}s1> <${EX}p> "one" } GRAPH <${EX}g2> { <${EX}s2> <${EX}p> "two" } }`);
      const bindings = await select(ds, `SELECT ?o WHERE { ?s <${EX}p> ?o } ORDER BY ?o`);
      expect(bindings.map((binding): string => binding.o.value)).toEqual([ 'one', 'two' ]);
      // Named graphs stay addressable.
      const inG1 = await select(ds, `SELECT ?o WHERE { GRAPH <${EX}g1> { ?s ?p ?o } }`);
      expect(inG1.map((binding): string => binding.o.value)).toEqual([ 'one' ]);
    });

    it('answers 400 with a message for a bad query and a bad update, and logs nothing', async(): Promise<void> => {
      const query = await request(`${ds}/query?query=${encodeURIComponent('SELEKT * WHERE { ?s ?p ?o }')}`);
      expect(query.status).toBe(400);
      expect(query.contentType).toMatch(/^text\/plain/u);
      expect(query.body.length).toBeGreaterThan(10);
      const update = await sparqlUpdate(ds, 'INSERT DATA { <not an iri> }');
      expect(update.status).toBe(400);
      expect(await select(ds, 'SELECT * WHERE { ?s ?p ?o }')).toEqual([]);
    });

    it('negotiates SELECT result formats by Accept with q-values', async(): Promise<void> => {
      await sparqlUpdate(ds, `INSERT DATA { <${EX}s> <${EX}p> "v" }`);
      const query = `?query=${encodeURIComponent('SELECT ?o WHERE { ?s ?p ?o }')}`;
      const cases: [string, RegExp, string][] = [
        [ 'application/sparql-results+xml', /^application\/sparql-results\+xml/u, '<literal>v</literal>' ],
        [ 'text/csv', /^text\/csv/u, 'o\r\nv' ],
        [ 'text/tab-separated-values', /^text\/tab-separated-values/u, '?o\n"v"' ],
        [ 'text/csv;q=0.5, application/sparql-results+xml;q=0.9', /^application\/sparql-results\+xml/u, '<sparql' ],
        [ '*/*', /^application\/sparql-results\+json/u, '"bindings"' ],
      ];
      for (const [ accept, type, fragment ] of cases) {
        const response = await request(`${ds}/query${query}`, { headers: { accept }});
        expect(response.status).toBe(200);
        expect(response.contentType).toMatch(type);
        expect(response.body).toContain(fragment);
      }
    });

    it('answers CONSTRUCT in N-Triples by default and Turtle or N-Quads on request', async(): Promise<void> => {
      await sparqlUpdate(ds, `INSERT DATA { GRAPH <${EX}g> { <${EX}s> <${EX}p> "v" } }`);
      const query = `?query=${encodeURIComponent('CONSTRUCT WHERE { ?s ?p ?o }')}`;
      const plain = await request(`${ds}/query${query}`);
      expect(plain.contentType).toMatch(/^application\/n-triples/u);
      expect(plain.body).toBe(`<${EX}s> <${EX}p> "v" .\n`);
      const turtle = await request(`${ds}/query${query}`, { headers: { accept: 'text/turtle' }});
      expect(turtle.contentType).toMatch(/^text\/turtle/u);
      const quads = await request(`${ds}/query${query}`, { headers: { accept: 'application/n-quads' }});
      expect(quads.contentType).toMatch(/^application\/n-quads/u);
      const describe = await request(`${ds}/query?query=${encodeURIComponent(`PREFIX ex: <${EX}> # comment\nDESCRIBE ex:s`)}`);
      expect(describe.contentType).toMatch(/^application\/n-triples/u);
      expect(describe.body).toContain('"v"');
    });

    it('refuses bodies over the limit with 413', async(): Promise<void> => {
      await store.stop();
      store = await runEmbeddedStore({ port: 0, dataDir, maxBodyBytes: 1024 });
      ds = `${store.url}/localData`;
      const response = await sparqlUpdate(ds, `INSERT DATA { <${EX}s> <${EX}p> "${'x'.repeat(2000)}" }`);
      expect(response.status).toBe(413);
      expect(await select(ds, 'SELECT * WHERE { ?s ?p ?o }')).toEqual([]);
    });
  });

  describe('Graph Store Protocol', (): void => {
    it('puts, reads, adds to and deletes a named graph', async(): Promise<void> => {
      const graph = `${ds}/data?graph=${encodeURIComponent(`${EX}g`)}`;
      expect((await request(graph)).status).toBe(404);
      const put = await request(graph, {
        method: 'PUT',
        headers: { 'content-type': 'text/turtle' },
        body: `@prefix ex: <${EX}> . ex:s ex:p "one" .`,
      });
      expect(put.status).toBe(201);
      const post = await request(graph, {
        method: 'POST',
        headers: { 'content-type': 'application/n-triples' },
        body: `<${EX}s> <${EX}p> "two" .\n`,
      });
      expect(post.status).toBe(204);
      const get = await request(graph, { headers: { accept: 'application/n-triples' }});
      expect(get.status).toBe(200);
      expect(get.body.trim().split('\n').sort()).toEqual([ `<${EX}s> <${EX}p> "one" .`, `<${EX}s> <${EX}p> "two" .` ]);
      const replace = await request(graph, {
        method: 'PUT',
        headers: { 'content-type': 'application/n-triples' },
        body: `<${EX}s> <${EX}p> "three" .\n`,
      });
      expect(replace.status).toBe(204);
      expect(await select(ds, `SELECT ?o WHERE { GRAPH <${EX}g> { ?s ?p ?o } }`)).toEqual([{ o: { type: 'literal', value: 'three' }}]);
      const bad = await request(graph, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: 'this is not turtle' });
      expect(bad.status).toBe(400);
      expect(await select(ds, `SELECT ?o WHERE { GRAPH <${EX}g> { ?s ?p ?o } }`)).toHaveLength(1);
      expect((await request(graph, { method: 'DELETE' })).status).toBe(204);
      expect((await request(graph)).status).toBe(404);
    });

    it('loads and dumps the whole dataset as N-Quads', async(): Promise<void> => {
      const post = await request(`${ds}/data`, {
        method: 'POST',
        headers: { 'content-type': 'application/n-quads' },
        body: `<${EX}s> <${EX}p> "d" .\n<${EX}s> <${EX}p> "n" <${EX}g> .\n`,
      });
      expect(post.status).toBe(204);
      const all = await request(`${ds}/data`);
      expect(all.contentType).toMatch(/^application\/n-quads/u);
      expect(all.body).toContain(`<${EX}s> <${EX}p> "n" <${EX}g> .`);
      expect(all.body).toContain(`<${EX}s> <${EX}p> "d" .`);
    });
  });

  describe('fetch-sparql-endpoint (as used by CSS SparqlDataAccessor)', (): void => {
    it('works against POST /{ds} for updates, CONSTRUCT, SELECT and ASK', async(): Promise<void> => {
      const fetcher = new SparqlEndpointFetcher({ defaultHeaders: new Headers({ authorization: ADMIN_AUTH }) });
      await fetcher.fetchUpdate(ds, `INSERT DATA { GRAPH <${EX}doc> { <${EX}doc> <${EX}title> "Doc" } }`);
      const triples = await readAll<{ subject: { value: string }; object: { value: string } }>(
        await fetcher.fetchTriples(ds, `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${EX}doc> { ?s ?p ?o } }`),
      );
      expect(triples.map((quad): string => quad.object.value)).toEqual([ 'Doc' ]);
      const bindings = await readAll<Record<string, { value: string }>>(
        await fetcher.fetchBindings(ds, `SELECT ?title WHERE { ?s <${EX}title> ?title }`),
      );
      expect(bindings.map((binding): string => binding.title.value)).toEqual([ 'Doc' ]);
      expect(await fetcher.fetchAsk(ds, `ASK { <${EX}doc> ?p ?o }`)).toBe(true);
      await expect(fetcher.fetchUpdate(ds, 'INSERT DATA { broken')).rejects.toThrow(/HTTP status 400/u);
    });

    it('works without credentials when anonymous access is "all"', async(): Promise<void> => {
      await store.stop();
      store = await runEmbeddedStore({ port: 0, dataDir, anonymousAccess: 'all' });
      ds = `${store.url}/localData`;
      const fetcher = new SparqlEndpointFetcher();
      await fetcher.fetchUpdate(ds, `INSERT DATA { <${EX}x> <${EX}p> "anon" }`);
      expect(await fetcher.fetchAsk(ds, `ASK { <${EX}x> <${EX}p> "anon" }`)).toBe(true);
    });
  });

  describe('anonymous read access', (): void => {
    it('lets anonymous clients query but not update', async(): Promise<void> => {
      await store.stop();
      store = await runEmbeddedStore({ port: 0, dataDir, anonymousAccess: 'read' });
      ds = `${store.url}/localData`;
      const query = await request(`${ds}/query?query=${encodeURIComponent('ASK {}')}`, { auth: null });
      expect(query.status).toBe(200);
      const update = await request(ds, {
        method: 'POST',
        auth: null,
        headers: { 'content-type': 'application/sparql-update' },
        body: `INSERT DATA { <${EX}s> <${EX}p> 1 }`,
      });
      expect(update.status).toBe(401);
      const form = await request(ds, {
        method: 'POST',
        auth: null,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ update: `INSERT DATA { <${EX}s> <${EX}p> 1 }` }).toString(),
      });
      expect(form.status).toBe(401);
      expect(await select(ds, 'SELECT * WHERE { ?s ?p ?o }')).toEqual([]);
    });
  });

  describe('data directory lock', (): void => {
    it('refuses a data directory held by another live process, and takes over a dead one', async(): Promise<void> => {
      const otherDir = mkdtempSync(join(tmpdir(), 'fedpod-embedded-lock-'));
      try {
        // Our parent process is alive and is not us.
        writeFileSync(join(otherDir, 'store.lock'), `${process.ppid} someone-else\n`);
        await expect(runEmbeddedStore({ port: 0, dataDir: otherDir })).rejects.toThrow(/in use by process/u);
        // A pid that cannot exist (above the kernel's pid_max) counts as dead.
        writeFileSync(join(otherDir, 'store.lock'), '99999999 crashed\n');
        const other = await runEmbeddedStore({ port: 0, dataDir: otherDir });
        await other.stop();
        expect(existsSync(join(otherDir, 'store.lock'))).toBe(false);
      } finally {
        rmSync(otherDir, { recursive: true, force: true });
      }
    });
  });

  describe('persistence of the dataset list', (): void => {
    it('brings datasets and their data back after a clean restart; mem datasets come back empty', async(): Promise<void> => {
      expect((await createDataset(base, 'scratch', 'mem')).status).toBe(200);
      await sparqlUpdate(ds, `INSERT DATA { <${EX}kept> <${EX}p> "yes" }`);
      await sparqlUpdate(`${base}/scratch`, `INSERT DATA { <${EX}lost> <${EX}p> "no" }`);
      await store.stop();
      store = await runEmbeddedStore({ port: 0, dataDir });
      const list = JSON.parse((await request(`${store.url}/$/datasets`)).body) as { datasets: { 'ds.name': string }[] };
      expect(list.datasets.map((entry): string => entry['ds.name']).sort()).toEqual([ '/localData', '/scratch' ]);
      expect(await select(`${store.url}/localData`, `SELECT ?o WHERE { <${EX}kept> ?p ?o }`)).toHaveLength(1);
      expect(await select(`${store.url}/scratch`, 'SELECT * WHERE { ?s ?p ?o }')).toEqual([]);
    });
  });
});
