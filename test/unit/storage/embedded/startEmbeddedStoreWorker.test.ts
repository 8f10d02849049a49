import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedStoreWorker } from '../../../../src/storage/embedded';
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
