/**
 * An HTTPS front for a plain-HTTP server of the test (Fedpod): a TLS
 * terminating reverse proxy as an operator would put in front of it, so
 * Fedpod can have an https:// public base URL, which federation needs.
 *
 * Every request is forwarded to http://127.0.0.1:<targetPort> with its Host
 * header unchanged (CSS builds resource IRIs from Host + X-Forwarded-*;
 * HTTP signatures cover Host) and `X-Forwarded-Proto: https`,
 * `X-Forwarded-Host`, `X-Forwarded-For` set. Bodies are streamed both ways;
 * upstream connections are kept alive.
 *
 * The proxy runs inside the test process (no PID of its own); stop() closes
 * it and every connection it holds.
 *
 * startHttpsFedpod() puts the two together: Fedpod with base URL
 * https://localhost:<proxy port>/ behind a proxy, trusting the test CA.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { FedpodStartError } from './fedpod';
import { ManagedProcess, type ManagedServer } from './managed-process';
import { freePort } from './ports';
import { REPO_ROOT, makeTempDir, spawnLogged, tailFile, waitForHttp, type SpawnedProcess } from './processes';
import { tlsEnv, type TlsFiles } from './tls';

const FEDPOD_BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');

export interface StartHttpsProxyOptions {
  /** The plain-HTTP server to forward to, on 127.0.0.1. */
  targetPort: number;
  certFile: string;
  keyFile: string;
  /** Default: a free port chosen by the kernel (no race: the proxy binds it itself). */
  port?: number;
}

export interface HttpsProxy {
  port: number;
  /** https://localhost:PORT/ (with the trailing slash). */
  url: string;
  /** Host header value clients send: localhost:PORT. */
  host: string;
  /** Closes the listener, the open client connections and the upstream sockets. */
  stop(): Promise<void>;
}

// Connection-specific headers are not forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const connectionTokens = String(headers.connection ?? '').toLowerCase().split(',').map((token) => token.trim());
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connectionTokens.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

export async function startHttpsProxy(options: StartHttpsProxyOptions): Promise<HttpsProxy> {
  const upstream = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let publicHost = '';

  const server = https.createServer(
    { cert: fs.readFileSync(options.certFile), key: fs.readFileSync(options.keyFile), keepAlive: true },
    (req, res) => {
      const headers = endToEnd(req.headers);
      // Host stays as the client sent it (localhost:PORT); HTTP/1.1 requires one.
      headers.host = req.headers.host ?? publicHost;
      headers['x-forwarded-proto'] = 'https';
      headers['x-forwarded-host'] = headers.host;
      const client = req.socket.remoteAddress ?? '127.0.0.1';
      headers['x-forwarded-for'] = req.headers['x-forwarded-for'] === undefined ? client : `${String(req.headers['x-forwarded-for'])}, ${client}`;
      // Node re-frames the body itself (chunked when there is no content-length).
      if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined) {
        headers['transfer-encoding'] = 'chunked';
      }
      const forward = http.request(
        { host: '127.0.0.1', port: options.targetPort, method: req.method, path: req.url, headers, agent: upstream },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
      forward.on('error', (err) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const text = `https-proxy: upstream http://127.0.0.1:${options.targetPort} failed: ${err.message}\n`;
        res.writeHead(502, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
      // Client went away before the answer was complete: drop the upstream request too.
      res.on('close', () => {
        if (!res.writableFinished) forward.destroy();
      });
      req.pipe(forward);
    },
  );
  // A TLS handshake failure or reset client is no reason to crash the test process.
  server.on('tlsClientError', () => undefined);
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  publicHost = `localhost:${port}`;

  let stopped: Promise<void> | undefined;
  return {
    port,
    url: `https://${publicHost}/`,
    host: publicHost,
    stop(): Promise<void> {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.destroy();
      });
      return stopped;
    },
  };
}

// ---------------------------------------------------------------- Fedpod behind the proxy

export interface StartHttpsFedpodOptions {
  /** `activitypub`, `ldp`, ... or a path to a config file. */
  config: string;
  tls: Pick<TlsFiles, 'caFile' | 'certFile' | 'keyFile'>;
  sparqlEndpoint?: string;
  redisUrl?: string;
  /** Default true: federation tests talk to peers on loopback. */
  allowPrivateNetwork?: boolean;
  extraArgs?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Default 90 s. */
  startTimeoutMs?: number;
}

export interface HttpsFedpod extends ManagedServer {
  /** The public base, https://localhost:PROXY_PORT/ (Fedpod's --base-url). */
  baseUrl: string;
  /** Fedpod's own plain-HTTP address, http://localhost:PORT/ (healthz, direct access). */
  directUrl: string;
  port: number;
  storePort: number;
  dataDir: string;
  proxy: HttpsProxy;
}

class FedpodBehindProxy extends ManagedProcess implements HttpsFedpod {
  readonly baseUrl: string;
  readonly directUrl: string;

  constructor(
    private readonly options: StartHttpsFedpodOptions,
    readonly proxy: HttpsProxy,
    readonly port: number,
    readonly storePort: number,
    readonly dataDir: string,
  ) {
    super('fedpod', 15_000);
    this.baseUrl = proxy.url;
    this.directUrl = `http://localhost:${port}/`;
  }

  protected async spawn(): Promise<SpawnedProcess> {
    const o = this.options;
    const args = [
      FEDPOD_BIN, 'start', '--config', o.config, '--port', String(this.port), '--base-url', this.baseUrl,
      '--data-dir', this.dataDir, '--store-port', String(this.storePort),
    ];
    if (o.sparqlEndpoint !== undefined) args.push('--sparql-endpoint', o.sparqlEndpoint);
    if (o.redisUrl !== undefined) args.push('--redis-url', o.redisUrl);
    if (o.allowPrivateNetwork ?? true) args.push('--allow-private-network');
    args.push(...(o.extraArgs ?? []));
    return spawnLogged(process.execPath, args, { name: 'fedpod', env: { ...tlsEnv(o.tls), ...o.env }, logFile: this.reusedLogFile });
  }

  protected async waitReady(abortIf: () => string | undefined): Promise<void> {
    await waitForHttp(`${this.directUrl}healthz`, { timeoutMs: this.options.startTimeoutMs ?? 90_000, abortIf });
  }

  protected startError(cause: unknown): Error {
    return new FedpodStartError(
      `fedpod (--config ${this.options.config}, port ${this.port}, base ${this.baseUrl}) did not become healthy: ${String(cause)}\n` +
        `--- ${this.logFile} (tail) ---\n${tailFile(this.logFile, 60)}`,
      tailFile(this.logFile, 200),
    );
  }

  /** Stops Fedpod, then the proxy. */
  override async stop(): Promise<void> {
    await super.stop();
    await this.proxy.stop();
  }

  /** Restarts Fedpod only (same ports, data and proxy). */
  override async restart(): Promise<void> {
    await super.stop();
    await this.launch();
  }
}

/**
 * Fedpod with an HTTPS public base: starts the proxy (kernel-chosen port P)
 * towards a free port F, then `fedpod start --port F --base-url
 * https://localhost:P/ --allow-private-network` with NODE_EXTRA_CA_CERTS, and
 * waits for http://localhost:F/healthz. stop() stops Fedpod (by PID), then
 * the proxy; restart()/kill9() act on Fedpod only (the proxy keeps its port).
 *
 * (startFedpod cannot do this: it always passes `--base-url
 * http://localhost:F/`, and a second --base-url in extraArgs makes yargs
 * produce an array.)
 */
export async function startHttpsFedpod(options: StartHttpsFedpodOptions): Promise<HttpsFedpod> {
  if (!fs.existsSync(FEDPOD_BIN) || !fs.existsSync(path.join(REPO_ROOT, 'dist'))) {
    throw new Error(`${FEDPOD_BIN} or dist/ missing: run \`npm run build\` (npm test does it)`);
  }
  const dataDir = makeTempDir('fedpod-data');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const proxy = await startHttpsProxy({ targetPort: port, certFile: options.tls.certFile, keyFile: options.tls.keyFile });
    const server = new FedpodBehindProxy(options, proxy, port, await freePort(), dataDir);
    try {
      await server.launch();
      return server;
    } catch (err) {
      await proxy.stop();
      const portTaken = err instanceof FedpodStartError && err.logTail.includes('EADDRINUSE');
      if (!(portTaken && attempt === 1)) throw err;
    }
  }
}
