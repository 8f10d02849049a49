import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP server standing in for the triple store's query endpoint: it answers ASK with
 * true, or with `status`, or never (`hang`). Records whether each request was a query or an update.
 */
export class FakeStore {
  public mode: 'ok' | 'hang' | number = 'ok';
  public readonly seen: string[] = [];
  private readonly server: Server;
  private readonly hung = new Set<() => void>();

  public constructor() {
    this.server = createServer((request, response): void => {
      let body = '';
      request.on('data', (chunk: Buffer): void => {
        body += chunk.toString();
      });
      request.on('end', (): void => {
        this.seen.push(body.split('=')[0]);
        if (this.mode === 'hang') {
          this.hung.add((): void => {
            response.destroy();
          });
          return;
        }
        if (typeof this.mode === 'number') {
          response.writeHead(this.mode).end('refused');
          return;
        }
        response.writeHead(200, { 'content-type': 'application/sparql-results+json' }).end('{"head":{},"boolean":true}');
      });
    });
  }

  public get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/ds/query`;
  }

  public async start(): Promise<void> {
    await new Promise<void>((resolve): void => {
      this.server.listen(0, '127.0.0.1', resolve);
    });
  }

  public async stop(): Promise<void> {
    for (const release of this.hung) {
      release();
    }
    this.server.closeAllConnections();
    await new Promise((resolve): void => {
      this.server.close(resolve);
    });
  }
}
