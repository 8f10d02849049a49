/**
 * A load balancer for tests of several Fedpod nodes: each request goes to the next node in turn,
 * unchanged (method, path, headers, Host included, body streamed), and the node's answer comes back
 * unchanged. Listens on 127.0.0.1; the nodes are on 127.0.0.1 too.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  /** http://localhost:PORT/ : the public base URL the nodes are given. */
  baseUrl: string;
  port: number;
  /** The nodes' ports, in turn; may be set after the proxy started (the nodes need its URL first). */
  backends: number[];
  /** Requests sent to each backend so far, by port. */
  forwarded: Map<number, number>;
  close(): Promise<void>;
}

export interface RoundRobinProxyOptions {
  /** The nodes' ports (may be set later on the proxy). */
  backends?: number[];
  /**
   * Most requests in flight to one node at once (more wait in the proxy), as a load balancer's
   * per-server connection limit; it keeps the nodes together within the store's connection limit.
   */
  maxConnectionsPerBackend?: number;
}

export async function startRoundRobinProxy(options: RoundRobinProxyOptions = {}): Promise<RoundRobinProxy> {
  const backends = options.backends ?? [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxConnectionsPerBackend ?? Number.POSITIVE_INFINITY });
  let next = 0;
  const proxy: RoundRobinProxy = {
    baseUrl: '',
    port: 0,
    backends,
    forwarded: new Map(),
    close: async() => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    if (proxy.backends.length === 0) {
      response.writeHead(503).end('no backend');
      return;
    }
    const port = proxy.backends[next % proxy.backends.length];
    next += 1;
    proxy.forwarded.set(port, (proxy.forwarded.get(port) ?? 0) + 1);
    const upstream = http.request({ host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      });
    upstream.on('error', (error) => {
      if (response.headersSent) {
        response.destroy(error);
      } else {
        response.writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'bad_gateway', message: error.message }));
      }
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.baseUrl = `http://localhost:${proxy.port}/`;
  return proxy;
}
