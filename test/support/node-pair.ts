/**
 * Two Fedpod nodes of one deployment behind a round-robin proxy, as the multi-node tests run them:
 * one SPARQL store (the shared Virtuoso), one Redis database, one data directory, one public base URL
 * (the proxy's), and requests sent to either node straight with that public Host.
 */
import * as http from 'node:http';
import { claimRedisDb, sharedServers } from './env';
import { startAll, startFedpod, type FedpodServer } from './fedpod';
import { makeTempDir } from './processes';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

export interface NodeAnswer { status: number; headers: http.IncomingHttpHeaders; body: string }

export interface NodePair {
  nodes: FedpodServer[];
  proxy: RoundRobinProxy;
  /** The public base URL (the proxy's). */
  base: string;
  /** The store both nodes use. */
  endpoint: string;
  /** A request to the proxy or straight to one node, always with the public Host. */
  call: (target: 'proxy' | FedpodServer, method: string, path: string,
    options?: { headers?: Record<string, string>; body?: string }) => Promise<NodeAnswer>;
  stop: () => Promise<void>;
}

/**
 * Starts the two nodes together on a fresh data directory, as replicas of one deployment are. The test
 * store (Virtuoso) takes 20 connections: at most 8 requests in flight per node keep both nodes' store
 * connections within that, as an operator sizes a load balancer to the store.
 * `onStarted` receives what started even when the other failed, so an afterAll can stop it.
 */
export async function startNodePair(config: string, dataDirPrefix: string, onStarted: (pair: NodePair) => void): Promise<NodePair> {
  const endpoint = sharedServers().sparqlEndpoint;
  const redisUrl = claimRedisDb();
  const proxy = await startRoundRobinProxy({ maxConnectionsPerBackend: 8 });
  const base = proxy.baseUrl;
  const dataDir = makeTempDir(dataDirPrefix);
  const agent = new http.Agent({ keepAlive: false });
  const pair: NodePair = {
    nodes: [],
    proxy,
    base,
    endpoint,
    call: (target, method, path, options = {}) => {
      const url = new URL(path, base);
      const port = target === 'proxy' ? proxy.port : target.port;
      const headers: Record<string, string> = { host: url.host, ...options.headers };
      if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
      return new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method, path: `${url.pathname}${url.search}`, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(options.body);
      });
    },
    stop: async() => {
      agent.destroy();
      await Promise.all(pair.nodes.map(async(node) => node.stop()));
      await proxy.close();
    },
  };
  onStarted(pair);
  await startAll([ 0, 1 ].map(async() => startFedpod({ config, sparqlEndpoint: endpoint, redisUrl, dataDir, baseUrl: base,
    allowPrivateNetwork: true })), (started) => {
    pair.nodes = started.filter((node): node is FedpodServer => node !== undefined);
  });
  proxy.backends = pair.nodes.map((node) => node.port);
  return pair;
}
