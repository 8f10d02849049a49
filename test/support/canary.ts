/**
 * An SSRF canary: an HTTP server on loopback (a real socket) that records every connection and every
 * request it is asked. A server without --allow-private-network must never reach it; the same case
 * with the flag must, which proves the case would catch a fetch that bypassed the guard.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export type CanaryRoute = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface Canary {
  port: number;
  /** http://localhost:PORT (a host name: the guard's DNS check, not only its IP-literal check). */
  origin: string;
  /** `connection` for each connection (a TLS handshake to this plain server included), `METHOD /path` for each request, in order. */
  hits: string[];
  /** Answers by path (without query); anything else is 200 `{}` as JSON. */
  routes: Map<string, CanaryRoute>;
  /** The hits after the first `from` ones. */
  since: (from: number) => string[];
  close: () => Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const routes = new Map<string, CanaryRoute>();
  const server = http.createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const route = routes.get((request.url ?? '/').split('?')[0]);
    if (route) {
      route(request, response);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  server.on('connection', () => {
    hits.push('connection');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://localhost:${port}`,
    hits,
    routes,
    since: (from) => hits.slice(from),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
