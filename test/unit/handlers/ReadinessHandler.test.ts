import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReadinessHandler } from '../../../src/handlers/ReadinessHandler';
import { QueueReadinessCheck } from '../../../src/plugins/queue/QueueReadinessCheck';
import { AbsentReadinessCheck } from '../../../src/plugins/observability/AbsentReadinessCheck';
import { StoreReadinessCheck } from '../../../src/plugins/observability/StoreReadinessCheck';
import type { JobQueueFactory } from '../../../src/plugins/queue/JobQueueFactory';
import { LocalJobQueueFactory } from '../../../src/plugins/queue/LocalJobQueueFactory';
import type { LocalJournalQueue } from '../../../src/plugins/queue/LocalJournalQueue';
import { SparqlClient } from '../../../src/storage/SparqlClient';
import { FakeStore } from '../plugins/observability/support/FakeStore';
import { serveHandler, type HandlerServer } from './support/handlerServer';

describe('ReadinessHandler', (): void => {
  const store = new FakeStore();
  let dataDir: string;
  let queues: JobQueueFactory;
  let client: SparqlClient;
  let server: HandlerServer;
  let base: string;

  beforeAll(async(): Promise<void> => {
    await store.start();
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-readiness-'));
    queues = new LocalJobQueueFactory(dataDir);
    await (queues.create('inbox') as LocalJournalQueue<unknown>).whenOpen();
    client = new SparqlClient(store.url, store.url);
    const handler = new ReadinessHandler([
      new StoreReadinessCheck(client),
      new QueueReadinessCheck(queues),
      // The local backend's empty slot: it does not apply and is left out.
      new AbsentReadinessCheck(),
    ], 300);
    server = await serveHandler(handler);
    base = server.base;
  });

  afterAll(async(): Promise<void> => {
    client.close();
    await queues.closeAll();
    await server.close();
    await store.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach((): void => {
    store.mode = 'ok';
  });

  it('answers 200 ready with every applicable check, not cached', async(): Promise<void> => {
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ready', checks: { store: { status: 'ok' }, queues: { status: 'ok' }}});
    const head = await fetch(`${base}/readyz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers 503 naming the store when it refuses queries', async(): Promise<void> => {
    store.mode = 500;
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json() as { error: string; message: string; checks: Record<string, { status: string }> };
    expect(body.error).toBe('not_ready');
    expect(body.message).toBe('Not ready: store');
    expect(body.checks.store.status).toBe('failed');
    expect(body.checks.queues.status).toBe('ok');
  });

  it('answers 503 in bounded time when the store hangs', async(): Promise<void> => {
    store.mode = 'hang';
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(503);
    const body = await response.json() as { message: string; checks: Record<string, { status: string; message: string }> };
    expect(body.message).toBe('Not ready: store');
    expect(body.checks.store.message).toContain('no answer within 300 ms');
  });

  it('leaves methods other than GET and HEAD to the pipeline (which answers 405)', async(): Promise<void> => {
    expect((await fetch(`${base}/readyz`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/readyz`, { method: 'HEAD' })).status).not.toBe(404);
  });
});
