import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEmbeddedStore } from '../../../../src/storage/embedded';
import { createDataset, request, select, sparqlUpdate } from './support/storeHttp';

describe('runEmbeddedStore', (): void => {
  let dataDir: string;
  let warnings: string[];
  const warn = (message: string): void => {
    warnings.push(message);
  };

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-run-store-'));
    warnings = [];
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves on a free port with the default credentials, and brings durable data back after a stop', async(): Promise<void> => {
    const store = await runEmbeddedStore({ port: 0, dataDir }, warn);
    expect(store.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
    expect((await createDataset(store.url, 'ds')).status).toBe(200);
    expect((await sparqlUpdate(`${store.url}/ds`, 'INSERT DATA { <urn:s> <urn:p> "kept" }')).status).toBe(204);
    await store.stop();
    const again = await runEmbeddedStore({ port: 0, dataDir }, warn);
    try {
      expect((await select(`${again.url}/ds`, 'SELECT ?o WHERE { ?s ?p ?o }')).map((row): string => row.o.value)).toEqual([ 'kept' ]);
    } finally {
      await again.stop();
    }
    expect(warnings).toEqual([]);
  });

  it('takes its credentials and anonymous access from the options', async(): Promise<void> => {
    const store = await runEmbeddedStore({ port: 0, dataDir, user: 'fedpod', password: 's3cret', anonymousAccess: 'read' }, warn);
    try {
      expect((await request(`${store.url}/$/datasets`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'dbName=ds' })).status).toBe(401);
      expect((await request(`${store.url}/$/datasets`, { method: 'POST', auth: `Basic ${Buffer.from('fedpod:s3cret').toString('base64')}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'dbName=ds' })).status).toBe(200);
      expect((await request(`${store.url}/$/datasets`, { auth: null })).status).toBe(200);
    } finally {
      await store.stop();
    }
  });

  it('stops once however often it is asked', async(): Promise<void> => {
    const store = await runEmbeddedStore({ port: 0, dataDir }, warn);
    const first = store.stop();
    expect(store.stop()).toBe(first);
    await first;
    await expect(request(`${store.url}/$/datasets`)).rejects.toThrow();
  });

  it('refuses a data directory another store of this process holds, leaving that store serving', async(): Promise<void> => {
    const holder = await runEmbeddedStore({ port: 0, dataDir }, warn);
    try {
      await createDataset(holder.url, 'ds');
      await expect(runEmbeddedStore({ port: 0, dataDir }, warn)).rejects.toThrow(`Data directory ${dataDir} is already open in this process`);
      expect((await request(`${holder.url}/$/datasets/ds`)).status).toBe(200);
    } finally {
      await holder.stop();
    }
    // Once stopped, the directory is free again.
    const next = await runEmbeddedStore({ port: 0, dataDir }, warn);
    await next.stop();
  });

  it('refuses a port in use before touching the data directory', async(): Promise<void> => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve): void => {
      blocker.listen(0, '127.0.0.1', resolve);
    });
    const { port } = blocker.address() as AddressInfo;
    const fresh = join(dataDir, 'never');
    try {
      await expect(runEmbeddedStore({ port, dataDir: fresh }, warn)).rejects
        .toThrow(`Embedded store: 127.0.0.1:${port} is already in use`);
      expect(existsSync(join(fresh, 'store.lock'))).toBe(false);
    } finally {
      await new Promise<void>((resolve): void => {
        blocker.close((): void => resolve());
      });
    }
  });

  it('requires a data directory', async(): Promise<void> => {
    await expect(runEmbeddedStore({ port: 0, dataDir: '' }, warn)).rejects.toThrow('Embedded store: dataDir is required');
  });
});
