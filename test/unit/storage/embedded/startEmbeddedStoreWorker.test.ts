import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { startEmbeddedStoreWorker } from '../../../../src/storage/embedded';
import { InProcessStores } from '../../../../src/storage/embedded/InProcessStores';
import type { InProcessStore } from '../../../../src/storage/embedded/InProcessStores';
import { SparqlClient } from '../../../../src/storage/SparqlClient';
import { StoreUnavailableHttpError } from '../../../../src/storage/StoreUnavailableHttpError';
import { createDataset, request, select, sparqlUpdate } from './support/storeHttp';

const EX = 'http://example.org/';

describe('startEmbeddedStoreWorker', (): void => {
  let dataDir: string;

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-embedded-worker-'));
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from a worker thread, stops cleanly, and keeps data for the next start', async(): Promise<void> => {
    const warnings: string[] = [];
    // Compacting at any close: the next start then loads a snapshot and replays nothing.
    const store = await startEmbeddedStoreWorker({ port: 0, dataDir, compactAtCloseBytes: 0 }, (message): void => {
      warnings.push(message);
    });
    expect(store.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
    expect((await request(`${store.url}/$/ping`, { auth: null })).status).toBe(200);
    expect((await createDataset(store.url, 'localData')).status).toBe(200);
    expect((await sparqlUpdate(`${store.url}/localData`, `INSERT DATA { <${EX}s> <${EX}p> "from worker" }`)).status).toBe(204);
    await store.stop();
    expect(await store.exited).toBe(0);
    await expect(fetch(`${store.url}/$/ping`)).rejects.toThrow();

    const informed: string[] = [];
    const again = await startEmbeddedStoreWorker({ port: 0, dataDir }, undefined, (message): void => {
      informed.push(message);
    });
    try {
      expect(informed).toEqual([ expect.stringMatching(/^Dataset localData: 1 quads; snapshot loaded in \d+ ms, 0 log records replayed/u) ]);
      expect(await select(`${again.url}/localData`, `SELECT ?o WHERE { <${EX}s> <${EX}p> ?o }`))
        .toEqual([{ o: { type: 'literal', value: 'from worker' }}]);
    } finally {
      await again.stop();
    }
    expect(warnings).toEqual([]);
  });

  it('takes the queries and updates of this process\'s clients without HTTP, answering as over HTTP', async(): Promise<void> => {
    const store = await startEmbeddedStoreWorker({ port: 0, dataDir });
    expect((await createDataset(store.url, 'localData')).status).toBe(200);
    // Counts what reaches the worker as messages (the registered store, wrapped).
    const direct = InProcessStores.find(store.url)!;
    const sent: string[] = [];
    const counting: InProcessStore = { operate: async(operation, timeoutMs) => {
      sent.push(operation.kind);
      return direct.operate(operation, timeoutMs);
    } };
    InProcessStores.register(store.url, counting);
    const client = new SparqlClient(`${store.url}/localData/query`, `${store.url}/localData/update`, 'admin', 'admin');
    try {
      await client.update(`INSERT DATA { <${EX}s> <${EX}p> "direct" }`);
      expect(await client.select(`SELECT ?o WHERE { <${EX}s> <${EX}p> ?o }`)).toEqual([{ o: expect.objectContaining({ value: 'direct' }) }]);
      expect(await client.ask(`ASK { <${EX}s> ?p ?o }`)).toBe(true);
      expect((await client.construct(`CONSTRUCT WHERE { <${EX}s> ?p ?o }`)).map((quad) => quad.object.value)).toEqual([ 'direct' ]);
      // The same refusals as the HTTP face gives: a syntax error is the client's (400), a missing dataset a fault.
      await expect(client.update('INSERT DATA { <urn:a> }')).rejects.toMatchObject({ statusCode: 400 });
      await expect(new SparqlClient(`${store.url}/missing/query`, `${store.url}/missing/update`).select('SELECT * {}'))
        .rejects.toThrow('refused the query with 404');
      expect(sent).toEqual([ 'update', 'query', 'query', 'query', 'update', 'query' ]);
      // Seen over HTTP too: one store.
      expect(await select(`${store.url}/localData`, `SELECT ?o WHERE { <${EX}s> <${EX}p> ?o }`)).toEqual([{ o: { type: 'literal', value: 'direct' }}]);
    } finally {
      InProcessStores.register(store.url, direct);
      await store.stop();
    }
    // Stopped: no longer in this process, and a client says the store is away.
    expect(InProcessStores.find(store.url)).toBeUndefined();
    expect(StoreUnavailableHttpError.isInstance(await client.select('SELECT * {}').catch((error: unknown) => error))).toBe(true);
    client.close();
  });

  it('sends the operations asked for in one turn of the loop as one message, and answers each', async(): Promise<void> => {
    const store = await startEmbeddedStoreWorker({ port: 0, dataDir });
    expect((await createDataset(store.url, 'localData')).status).toBe(200);
    const client = new SparqlClient(`${store.url}/localData/query`, `${store.url}/localData/update`, 'admin', 'admin');
    const posted = jest.spyOn(Worker.prototype, 'postMessage');
    try {
      await client.update(`INSERT DATA { ${Array.from({ length: 40 }, (_, index) => `<${EX}s${index}> <${EX}p> ${index} .`).join(' ')} }`);
      posted.mockClear();
      const answers = await Promise.all(Array.from({ length: 40 }, async(_, index) =>
        client.select(`SELECT ?o WHERE { <${EX}s${index}> <${EX}p> ?o }`)));
      // Each query got its own answer...
      expect(answers.map((rows) => Number(rows[0].o.value))).toEqual(Array.from({ length: 40 }, (_, index) => index));
      // ...and the forty went to the store's thread together.
      const batches = posted.mock.calls.map(([ message ]) => message as { type: string; operations?: unknown[] })
        .filter((message) => message.type === 'operations');
      expect(batches).toHaveLength(1);
      expect(batches[0].operations).toHaveLength(40);
    } finally {
      posted.mockRestore();
      client.close();
      await store.stop();
    }
  });

  it('rejects with a clear error when the port is taken', async(): Promise<void> => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve): void => {
      blocker.listen(0, '127.0.0.1', resolve);
    });
    const { port } = blocker.address() as { port: number };
    try {
      await expect(startEmbeddedStoreWorker({ port, dataDir })).rejects.toThrow(/already in use/u);
    } finally {
      await new Promise<void>((resolve): void => {
        blocker.close((): void => resolve());
      });
    }
  });
});
