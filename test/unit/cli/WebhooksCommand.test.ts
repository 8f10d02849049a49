import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runWebhooks } from '../../../src/cli/WebhooksCommand';

interface Received {
  method: string;
  url: string;
  authorization?: string;
  body: unknown;
}

/** A server in the place of a running Fedpod's operator route: it records each request and answers as told. */
class OperatorRouteStandIn {
  public readonly received: Received[] = [];
  public answer: { status: number; body: unknown } = { status: 200, body: []};
  private readonly server: Server = createServer((request: IncomingMessage, response: ServerResponse): void => {
    let text = '';
    request.on('data', (chunk: Buffer): void => {
      text += chunk.toString();
    });
    request.on('end', (): void => {
      this.received.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization,
        body: text ? JSON.parse(text) as unknown : undefined });
      response.writeHead(this.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(this.answer.body));
    });
  });

  public async start(): Promise<string> {
    await new Promise<void>((resolve): void => {
      this.server.listen(0, '127.0.0.1', resolve);
    });
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  public async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve): void => {
      this.server.close((): void => resolve());
    });
  }
}

describe('WebhooksCommand', (): void => {
  const route = new OperatorRouteStandIn();
  let dataDir: string;
  let out: string[];
  let err: string[];

  beforeAll(async(): Promise<void> => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'fedpod-webhooks-command-'));
    const localUrl = await route.start();
    writeFileSync(path.join(dataDir, 'operator.json'), JSON.stringify({ baseUrl: 'https://pod.example/', localUrl, secret: 's3cret', pid: 1 }));
  });

  afterAll(async(): Promise<void> => {
    await route.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  beforeEach((): void => {
    route.received.length = 0;
    out = [];
    err = [];
    // What the command prints is what is checked.
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array): boolean => out.push(String(chunk)) > 0);
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array): boolean => err.push(String(chunk)) > 0);
  });

  afterEach((): void => {
    jest.restoreAllMocks();
  });

  it('generates through the running server with its secret, printing the URI', async(): Promise<void> => {
    route.answer = { status: 201, body: { id: 'https://pod.example/webhooks/abc', user: 'u', action: 'a', created: 'c' }};
    expect(await runWebhooks('generate', { 'data-dir': dataDir, user: 'alice', action: 'store-in-container' })).toBe(0);
    expect(route.received).toEqual([{ method: 'POST', url: '/operator/webhooks', authorization: 'Bearer s3cret',
      body: { user: 'alice', action: 'store-in-container' }}]);
    expect(out).toEqual([ 'https://pod.example/webhooks/abc\n' ]);
  });

  it('lists one line per webhook, tab-separated, filtered by user when given', async(): Promise<void> => {
    route.answer = { status: 200, body: [ { iri: 'https://pod.example/webhooks/k1', user: 'https://pod.example/actors/alice',
      action: 'store-in-container', created: '2026-01-01T00:00:00Z' } ]};
    expect(await runWebhooks('list', { 'data-dir': dataDir, user: 'alice' })).toBe(0);
    expect(route.received[0]).toMatchObject({ method: 'GET', url: '/operator/webhooks?user=alice' });
    expect(out).toEqual([ 'https://pod.example/webhooks/k1\thttps://pod.example/actors/alice\tstore-in-container\t2026-01-01T00:00:00Z\n' ]);
  });

  it('revokes by URI, saying what was revoked', async(): Promise<void> => {
    route.answer = { status: 200, body: { iri: 'https://pod.example/webhooks/k1', user: 'https://pod.example/actors/alice', action: 'a' }};
    expect(await runWebhooks('revoke', { 'data-dir': dataDir, uri: 'https://pod.example/webhooks/secret' })).toBe(0);
    expect(route.received[0]).toMatchObject({ method: 'DELETE', body: { uri: 'https://pod.example/webhooks/secret' }});
    expect(out).toEqual([ 'revoked https://pod.example/webhooks/k1 (a for https://pod.example/actors/alice)\n' ]);
  });

  it('ends with 1 and the server\'s message when it refuses, or the status without one', async(): Promise<void> => {
    route.answer = { status: 400, body: { error: 'unknown_action', message: 'Unknown webhook action "x".' }};
    expect(await runWebhooks('generate', { 'data-dir': dataDir, user: 'alice', action: 'x' })).toBe(1);
    expect(err).toEqual([ 'fedpod webhooks generate: Unknown webhook action "x".\n' ]);
    route.answer = { status: 500, body: []};
    expect(await runWebhooks('revoke', { 'data-dir': dataDir, uri: 'u' })).toBe(1);
    expect(err[1]).toBe('fedpod webhooks revoke: HTTP 500\n');
    expect(out).toEqual([]);
  });

  it('ends with 1 when the answer has the wrong shape for the command', async(): Promise<void> => {
    route.answer = { status: 200, body: { id: 'x' }};
    expect(await runWebhooks('list', { 'data-dir': dataDir })).toBe(1);
    expect(route.received[0].url).toBe('/operator/webhooks');
    expect(err).toEqual([ 'fedpod webhooks list: HTTP 200\n' ]);
  });
});
