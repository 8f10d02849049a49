import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EmbeddedStoreHandle } from '../../../src/storage/embedded';
import { runEmbeddedStore } from '../../../src/storage/embedded';
import { StoreDatasetInitializer } from '../../../src/storage/StoreDatasetInitializer';
import { request, select, sparqlUpdate } from './embedded/support/storeHttp';

/** A Fuseki-like admin API that answers each POST with the next of `answers`, recording what it got. */
async function adminStandIn(getStatus: number, answers: number[]):
Promise<{ url: string; posts: { type: string; body: string }[]; close: () => Promise<void> }> {
  const posts: { type: string; body: string }[] = [];
  const server = http.createServer((req, res): void => {
    let body = '';
    req.on('data', (chunk: Buffer): void => {
      body += chunk.toString('utf8');
    });
    req.on('end', (): void => {
      if (req.method === 'GET') {
        res.writeHead(getStatus).end();
        return;
      }
      posts.push({ type: req.headers['content-type'] ?? '', body });
      res.writeHead(answers.shift() ?? 500).end('no thanks');
    });
  });
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    posts,
    close: async(): Promise<void> => new Promise<void>((resolve): void => {
      server.close((): void => resolve());
    }),
  };
}

describe('StoreDatasetInitializer', (): void => {
  describe('on the embedded store', (): void => {
    let dataDir: string;
    let store: EmbeddedStoreHandle;

    beforeAll(async(): Promise<void> => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-dataset-init-'));
      store = await runEmbeddedStore({ port: 0, dataDir });
    });

    afterAll(async(): Promise<void> => {
      await store.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('creates a missing dataset that queries find named-graph data through', async(): Promise<void> => {
      expect((await request(`${store.url}/$/datasets/fresh`)).status).toBe(404);
      await new StoreDatasetInitializer(`${store.url}/`, 'fresh').handle();
      expect((await request(`${store.url}/$/datasets/fresh`)).status).toBe(200);
      expect((await sparqlUpdate(`${store.url}/fresh/update`, 'INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> "o" } }')).status).toBe(204);
      expect((await select(`${store.url}/fresh/query`, 'SELECT ?o WHERE { ?s ?p ?o }')).map((row): string => row.o.value))
        .toEqual([ 'o' ]);
    });

    it('leaves an existing dataset and its data alone', async(): Promise<void> => {
      await new StoreDatasetInitializer(store.url, 'kept').handle();
      await sparqlUpdate(`${store.url}/kept/update`, 'INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> "kept" } }');
      await new StoreDatasetInitializer(store.url, 'kept').handle();
      expect(await select(`${store.url}/kept/query`, 'SELECT ?o WHERE { GRAPH ?g { ?s ?p ?o } }')).toHaveLength(1);
    });

    it('says when the store refuses its credentials', async(): Promise<void> => {
      await expect(new StoreDatasetInitializer(store.url, 'denied', 'admin', 'wrong').handle())
        .rejects.toThrow('The triple store refused the credentials for user admin (401)');
      expect((await request(`${store.url}/$/datasets/denied`)).status).toBe(404);
    });
  });

  it.each([ '', '-lead', 'has space', 'a/b', 'x'.repeat(65) ])('refuses the dataset name %j before asking the store', async(name): Promise<void> => {
    const standIn = await adminStandIn(404, []);
    try {
      await expect(new StoreDatasetInitializer(standIn.url, name).handle()).rejects.toThrow('Invalid dataset name');
      expect(standIn.posts).toEqual([]);
    } finally {
      await standIn.close();
    }
  });

  it('does nothing without an admin URL (a plain SPARQL endpoint)', async(): Promise<void> => {
    await expect(new StoreDatasetInitializer('', 'ds').handle()).resolves.toBeUndefined();
  });

  it('creates the dataset by form when the store takes no assembler', async(): Promise<void> => {
    const standIn = await adminStandIn(404, [ 415, 200 ]);
    try {
      await new StoreDatasetInitializer(standIn.url, 'ds').handle();
      expect(standIn.posts.map((post): string => post.type)).toEqual([ 'text/turtle', 'application/x-www-form-urlencoded' ]);
      expect(standIn.posts[0].body).toContain('tdb2:unionDefaultGraph true');
      expect(standIn.posts[1].body).toBe('dbName=ds&dbType=tdb2');
    } finally {
      await standIn.close();
    }
  });

  it('takes a dataset made meanwhile (409), and fails with the store\'s answer otherwise', async(): Promise<void> => {
    const raced = await adminStandIn(404, [ 409 ]);
    const refusing = await adminStandIn(404, [ 500, 503 ]);
    try {
      await expect(new StoreDatasetInitializer(raced.url, 'ds').handle()).resolves.toBeUndefined();
      expect(raced.posts).toHaveLength(1);
      await expect(new StoreDatasetInitializer(refusing.url, 'ds').handle()).rejects.toThrow('Could not create dataset ds: 503 no thanks');
    } finally {
      await raced.close();
      await refusing.close();
    }
  });
});
