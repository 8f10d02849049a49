/**
 * Runs the real Fedpod server (`node bin/fedpod.js start ...`, from dist/ as
 * built by `npm run build`) as a child process, as an operator would.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ManagedProcess, type ManagedServer } from './managed-process';
import { freePort } from './ports';
import {
  REPO_ROOT,
  makeTempDir,
  spawnLogged,
  tailFile,
  waitForHttp,
  type SpawnedProcess,
} from './processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');

export interface StartFedpodOptions {
  /** `ldp`, `activitypub`, or a path to a config file. */
  config: string;
  /** External SPARQL endpoint (e.g. the shared Virtuoso); omitted = server default. */
  sparqlEndpoint?: string;
  redisUrl?: string;
  /** Passes --allow-private-network (needed to fetch from other loopback servers). */
  allowPrivateNetwork?: boolean;
  /** Default: a new directory under the run directory. */
  dataDir?: string;
  /** Default: free ports. */
  port?: number;
  /** Public base URL (--base-url); default http://localhost:<port>/. Nodes behind one proxy share the proxy's. */
  baseUrl?: string;
  storePort?: number;
  extraArgs?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** How long to wait for GET /healthz to answer 200; default 90 s. */
  startTimeoutMs?: number;
}

export interface FedpodServer extends ManagedServer {
  /** http://localhost:PORT/ (with the trailing slash). */
  baseUrl: string;
  port: number;
  storePort: number;
  dataDir: string;
}

function cliArgs(options: StartFedpodOptions, port: number, storePort: number, dataDir: string): string[] {
  const args = [
    BIN, 'start',
    '--config', options.config,
    '--port', String(port),
    '--base-url', options.baseUrl ?? `http://localhost:${port}/`,
    '--data-dir', dataDir,
    '--store-port', String(storePort),
  ];
  if (options.sparqlEndpoint !== undefined) args.push('--sparql-endpoint', options.sparqlEndpoint);
  if (options.redisUrl !== undefined) args.push('--redis-url', options.redisUrl);
  if (options.allowPrivateNetwork === true) args.push('--allow-private-network');
  args.push(...(options.extraArgs ?? []));
  return args;
}

class Fedpod extends ManagedProcess implements FedpodServer {
  readonly baseUrl: string;

  constructor(
    private readonly options: StartFedpodOptions,
    readonly port: number,
    readonly storePort: number,
    readonly dataDir: string,
  ) {
    super('fedpod', 15_000);
    this.baseUrl = `http://localhost:${port}/`;
  }

  protected async spawn(): Promise<SpawnedProcess> {
    return spawnLogged(process.execPath, cliArgs(this.options, this.port, this.storePort, this.dataDir), {
      name: 'fedpod',
      env: this.options.env,
      logFile: this.reusedLogFile,
    });
  }

  protected async waitReady(abortIf: () => string | undefined): Promise<void> {
    await waitForHttp(`${this.baseUrl}healthz`, { timeoutMs: this.options.startTimeoutMs ?? 90_000, abortIf });
  }

  protected startError(cause: unknown): Error {
    return new FedpodStartError(
      `fedpod (--config ${this.options.config}, port ${this.port}) did not become healthy: ${String(cause)}\n` +
        `--- ${this.logFile} (tail) ---\n${tailFile(this.logFile, 60)}`,
      tailFile(this.logFile, 200),
    );
  }
}

export class FedpodStartError extends Error {
  constructor(
    message: string,
    readonly logTail: string,
  ) {
    super(message);
    this.name = 'FedpodStartError';
  }
}

function checkBuilt(): void {
  if (!fs.existsSync(BIN) || !fs.existsSync(path.join(REPO_ROOT, 'dist'))) {
    throw new Error(`${BIN} or dist/ missing: run \`npm run build\` (npm test does it)`);
  }
}

/**
 * Starts Fedpod on free ports and resolves once GET /healthz answers 200.
 * If the ports were chosen here and another process took one meanwhile
 * (EADDRINUSE), tries once more with new ports.
 */
export async function startFedpod(options: StartFedpodOptions): Promise<FedpodServer> {
  checkBuilt();
  const dataDir = options.dataDir ?? makeTempDir('fedpod-data');
  fs.mkdirSync(dataDir, { recursive: true });
  const canRetry = options.port === undefined && options.storePort === undefined;
  for (let attempt = 1; ; attempt++) {
    const server = new Fedpod(options, options.port ?? (await freePort()), options.storePort ?? (await freePort()), dataDir);
    try {
      await server.launch();
      return server;
    } catch (err) {
      const portTaken = err instanceof FedpodStartError && err.logTail.includes('EADDRINUSE');
      if (!(canRetry && portTaken && attempt === 1)) throw err;
    }
  }
}

/**
 * Starts servers side by side and waits for all: if one fails, the others that started are still
 * returned to the caller's afterAll (through `onStarted`) before the failure is thrown, so none leaks.
 */
export async function startAll<T>(starts: Promise<T>[], onStarted: (servers: (T | undefined)[]) => void): Promise<T[]> {
  const started = await Promise.allSettled(starts);
  const servers = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  onStarted(servers);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return servers as T[];
}
