import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PrometheusMetrics } from '../../../src/plugins/observability/PrometheusMetrics';
import { runEmbeddedStore, type EmbeddedStoreHandle } from '../../../src/storage/embedded';
import { SparqlClient } from '../../../src/storage/SparqlClient';
import { StoreUnavailableHttpError } from '../../../src/storage/StoreUnavailableHttpError';
import { rejection } from '../../support/rejection';
import { FakeStore as MetricsStore } from '../plugins/observability/support/FakeStore';
import { createDataset } from './embedded/support/storeHttp';

/** A store stand-in on loopback: `answer` decides, per request (1-based), what it does. */
interface FakeStore {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

type Answer = 'reset' | 'hang' | { status: number; body: string; type?: string };

async function fakeStore(answer: (n: number) => Answer): Promise<FakeStore> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response): void => {
    count += 1;
    const what = answer(count);
    request.resume();
    if (what === 'reset') {
      request.socket.destroy();
      return;
    }
    if (what === 'hang') {
      return;
    }
    response.writeHead(what.status, { 'content-type': what.type ?? 'application/sparql-results+json' }).end(what.body);
  });
  server.on('connection', (socket): void => {
    sockets.add(socket);
    socket.on('close', (): boolean => sockets.delete(socket));
  });
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sparql`,
    requests: (): number => count,
    close: async(): Promise<void> => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve): void => {
        server.close((): void => resolve());
      });
    },
  };
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve): void => {
    server.close((): void => resolve());
  });
  return port;
}

const ASK_TRUE = { status: 200, body: '{"boolean":true}' };

describe('SparqlClient when the store is away', (): void => {
  let store: FakeStore | undefined;
  let client: SparqlClient | undefined;

  afterEach(async(): Promise<void> => {
    client?.close();
    await store?.close();
    client = undefined;
    store = undefined;
  });

  it('answers a refused connection with StoreUnavailableHttpError (503, store_unavailable), not a raw error', async(): Promise<void> => {
    const url = `http://127.0.0.1:${await closedPort()}/sparql`;
    client = new SparqlClient(url, url);
    for (const call of [ client.ask('ASK {}'), client.update('INSERT DATA { <urn:a> <urn:b> <urn:c> }') ]) {
      const error = await rejection(call);
      expect(StoreUnavailableHttpError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 503, errorCode: 'store_unavailable' });
      expect((error as Error).message).toContain('ECONNREFUSED');
    }
  });

  it('sends a query again when the connection was reset before an answer', async(): Promise<void> => {
    store = await fakeStore((n): Answer => n === 1 ? 'reset' : ASK_TRUE);
    client = new SparqlClient(store.url, store.url);
    await expect(client.ask('ASK {}')).resolves.toBe(true);
    expect(store.requests()).toBe(2);
  });

  it('does not send an update again after a reset (it may have been applied): 503 instead', async(): Promise<void> => {
    store = await fakeStore((): Answer => 'reset');
    client = new SparqlClient(store.url, store.url);
    const error = await rejection(client.update('INSERT DATA { <urn:a> <urn:b> <urn:c> }'));
    expect(StoreUnavailableHttpError.isInstance(error)).toBe(true);
    expect(store.requests()).toBe(1);
  });

  it('gives up on a query after three resets', async(): Promise<void> => {
    store = await fakeStore((): Answer => 'reset');
    client = new SparqlClient(store.url, store.url);
    expect(StoreUnavailableHttpError.isInstance(await rejection(client.select('SELECT * {}')))).toBe(true);
    expect(store.requests()).toBe(3);
  });

  it('turns a store that does not answer in time into a 503 saying so', async(): Promise<void> => {
    store = await fakeStore((): Answer => 'hang');
    client = new SparqlClient(store.url, store.url, '', '', 200);
    const error = await rejection(client.ask('ASK {}'));
    expect(StoreUnavailableHttpError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/timed out/u);
    expect(store.requests()).toBe(1);
  });

  it('sends an update again when Virtuoso chose it as a deadlock victim (rolled back)', async(): Promise<void> => {
    store = await fakeStore((n): Answer => n === 1 ?
      { status: 500, body: 'Virtuoso 40001 Error SR172: Transaction deadlocked', type: 'text/plain' } :
      { status: 200, body: '', type: 'text/plain' });
    client = new SparqlClient(store.url, store.url);
    await expect(client.update('INSERT DATA { <urn:a> <urn:b> <urn:c> }')).resolves.toBeUndefined();
    expect(store.requests()).toBe(2);
  });

  it('passes the store\'s own 503 on as StoreUnavailableHttpError, other failures as a server fault (no HTTP status)', async(): Promise<void> => {
    store = await fakeStore((n): Answer => n === 1 ?
      { status: 503, body: 'starting', type: 'text/plain' } :
      { status: 500, body: 'broken', type: 'text/plain' });
    client = new SparqlClient(store.url, store.url);
    expect(StoreUnavailableHttpError.isInstance(await rejection(client.ask('ASK {}')))).toBe(true);
    const other = await rejection(client.ask('ASK {}'));
    expect(other).toBeInstanceOf(Error);
    expect(other).not.toHaveProperty('statusCode');
    expect((other as Error).message).toContain('with 500: broken');
  });

  it('turns a store\'s refusal of the content into a 400 bad_request, never a 500', async(): Promise<void> => {
    const answers: Answer[] = [
      { status: 400, body: 'Virtuoso 22005 Error SR...: Bad value for xsd:integer\nmore', type: 'text/plain' },
      { status: 500, body: 'Virtuoso 37000 Error SP031: SPARQL compiler: the generated SQL text is too long', type: 'text/plain' },
      { status: 413, body: 'too large', type: 'text/plain' },
      { status: 500, body: 'Virtuoso 08C01 Error CL...: connection lost', type: 'text/plain' },
      { status: 503, body: 'down', type: 'text/plain' },
    ];
    store = await fakeStore((n): Answer => answers[n - 1]);
    client = new SparqlClient(store.url, store.url);
    for (let index = 0; index < 3; index++) {
      const refused = await rejection(client.update('INSERT DATA { <urn:a> <urn:b> "abc"^^<http://www.w3.org/2001/XMLSchema#integer> }'));
      expect(refused).toMatchObject({ statusCode: 400, errorCode: 'bad_request' });
    }
    expect((await rejection(client.update('INSERT DATA { <urn:a> <urn:b> <urn:c> }')) as Error).message).toContain('refused the update with 500');
    expect(StoreUnavailableHttpError.isInstance(await rejection(client.update('INSERT DATA { <urn:a> <urn:b> <urn:c> }')))).toBe(true);
  });
});

describe('SparqlClient metrics', (): void => {
  const store = new MetricsStore();

  beforeAll(async(): Promise<void> => {
    await store.start();
  });

  afterAll(async(): Promise<void> => {
    await store.stop();
  });

  it('records the latency of queries and updates, with their outcome', async(): Promise<void> => {
    const metrics = new PrometheusMetrics(1000, 2000, false);
    const client = new SparqlClient(store.url, store.url, '', '', 5000, metrics);
    store.mode = 'ok';
    await client.ask('ASK {}');
    await client.ask('ASK {}');
    store.mode = 500;
    await expect(client.update('INSERT DATA {}')).rejects.toThrow('500');
    client.close();
    const { body } = await metrics.expose();
    expect(body).toContain('fedpod_store_request_duration_seconds_count{operation="query",outcome="ok"} 2');
    expect(body).toContain('fedpod_store_request_duration_seconds_count{operation="update",outcome="error"} 1');
  });
});

describe('SparqlClient update groups (on the embedded store)', (): void => {
  let dataDir: string;
  let store: EmbeddedStoreHandle;

  beforeAll(async(): Promise<void> => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-update-groups-'));
    store = await runEmbeddedStore({ port: 0, dataDir });
    expect((await createDataset(store.url, 'ds')).status).toBeLessThan(300);
  });

  afterAll(async(): Promise<void> => {
    await store.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A client whose update requests are counted (by outcome) by its metrics. */
  function countedClient(): { client: SparqlClient; requests: () => Promise<string> } {
    const metrics = new PrometheusMetrics(1000, 2000, false);
    const client = new SparqlClient(`${store.url}/ds/query`, `${store.url}/ds/update`, 'admin', 'admin', 5000, metrics);
    return { client, requests: async(): Promise<string> => (await metrics.expose()).body.split('\n')
      .filter((line): boolean => line.startsWith('fedpod_store_request_duration_seconds_count{operation="update"')).sort().join('\n') };
  }

  it('sends updates asked for together as one request, each applied', async(): Promise<void> => {
    const { client, requests } = countedClient();
    await Promise.all(Array.from({ length: 20 }, async(unused, index): Promise<void> =>
      client.update(`INSERT DATA { GRAPH <urn:group:1> { <urn:s${index}> <urn:p> ${index} } }`)));
    expect(await client.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:group:1> { ?s ?p ?o } }')).toEqual([
      { n: expect.objectContaining({ value: '20' }) },
    ]);
    expect(await requests()).toBe('fedpod_store_request_duration_seconds_count{operation="update",outcome="ok"} 1');
    client.close();
  });

  it('applies the good updates of a group the store refused, and refuses the bad one alone', async(): Promise<void> => {
    const { client, requests } = countedClient();
    const outcomes = await Promise.allSettled([
      client.update('INSERT DATA { GRAPH <urn:group:2> { <urn:a> <urn:p> 1 } }'),
      client.update('INSERT DATA { GRAPH <urn:group:2> { <urn:b> } }'),
      client.update('INSERT DATA { GRAPH <urn:group:2> { <urn:c> <urn:p> 3 } }'),
    ]);
    expect(outcomes.map((outcome): string => outcome.status)).toEqual([ 'fulfilled', 'rejected', 'fulfilled' ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 400 });
    const rows = await client.select('SELECT ?s WHERE { GRAPH <urn:group:2> { ?s ?p ?o } } ORDER BY ?s');
    expect(rows.map((row): string => row.s.value)).toEqual([ 'urn:a', 'urn:c' ]);
    // The group, then each update alone.
    expect(await requests()).toBe([
      'fedpod_store_request_duration_seconds_count{operation="update",outcome="error"} 2',
      'fedpod_store_request_duration_seconds_count{operation="update",outcome="ok"} 2',
    ].join('\n'));
    client.close();
  });
});
