import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

/** A tiny HTTP server on 127.0.0.1 with a mutable route table that records every request. */
export class LocalServer {
  public readonly routes = new Map<string, Route>();
  public readonly seen: Seen[] = [];
  public connections = 0;
  private readonly server: http.Server;

  /** @param keepAliveTimeoutMs - How long the server keeps an idle connection (Node's default: 5 s). */
  public constructor(keepAliveTimeoutMs = 5_000) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const route = this.routes.get((req.url ?? '').split('?')[0]);
        if (route === undefined) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        } else {
          route(req, res, body);
        }
      });
    });
    this.server.keepAliveTimeout = keepAliveTimeoutMs;
    this.server.on('connection', () => {
      this.connections += 1;
    });
  }

  public async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  public get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  public get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Serves a JSON document at a path. */
  public json(path: string, document: unknown, status = 200, type = 'application/activity+json'): void {
    this.routes.set(path, (_req, res) => {
      res.writeHead(status, { 'content-type': type }).end(JSON.stringify(document));
    });
  }

  public requestsTo(path: string): Seen[] {
    return this.seen.filter((entry) => entry.url.split('?')[0] === path);
  }

  public async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
