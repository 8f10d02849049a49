/**
 * An SSRF trap: a loopback HTTP server that every private-address URL in the corpus points at.
 * A server started without --allow-private-network must never connect to it, so it records
 * every connection (even ones that never send a full request).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Canary {
  port: number;
  /** One line per connection or request seen. */
  hits: string[];
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'application/activity+json' });
    response.end('{}');
  });
  server.on('connection', (socket) => {
    hits.push(`connection from ${socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
