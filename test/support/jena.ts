/**
 * The Jena test server (test/fixtures/jena-test-server): a small SPARQL server over Debian's
 * Apache Jena (ARQ and TDB2), laid out as Fuseki is (/DATASET/query, /update, /data, /$/ admin
 * calls), so the store tests run on Jena's query engine and on Fedpod's Fuseki-style path too.
 * It is compiled on first use (build.sh does nothing when the classes are up to date).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ManagedProcess, type ManagedServer } from './managed-process';
import { freePort } from './ports';
import {
  makeTmpfsDir,
  REPO_ROOT,
  spawnLogged,
  tailFile,
  testTmpRoot,
  waitForHttp,
  type SpawnedProcess,
} from './processes';

const execFileAsync = promisify(execFile);
const BUILD_SCRIPT = path.join(REPO_ROOT, 'test', 'fixtures', 'jena-test-server', 'build.sh');
const MISSING_HINT = 'Jena or a JDK is not installed: run `bash scripts/ensure-test-deps.sh` (as root) or `npm test`';
/** The credentials the server asks for (every request but /$/ping): Fedpod's default --sparql-user/--sparql-password. */
export const JENA_USER = 'admin';
export const JENA_PASSWORD = 'admin';

/** stop: the JVM's shutdown hook releases the TDB2 databases; kill9: TDB2 keeps every committed transaction. */
export interface JenaTestServer extends ManagedServer {
  /** http://127.0.0.1:PORT (the Fuseki-style base Fedpod's --sparql-endpoint takes). */
  baseUrl: string;
  port: number;
  dir: string;
}

export interface StartJenaOptions {
  /**
   * Default: a new directory on tmpfs, linked from the run directory (makeTmpfsDir): TDB2 syncs
   * every commit to disk, and on a busy disk that wait made Jena the slowest of the stores by far.
   */
  dir?: string;
  startTimeoutMs?: number;
}

/** Compiles the server when its sources changed; resolves to the java class path to run it with. */
async function buildJenaTestServer(): Promise<string> {
  const out = path.join(testTmpRoot(), 'jena-test-server');
  try {
    await execFileAsync('bash', [BUILD_SCRIPT, out], { timeout: 180_000 });
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`could not compile the Jena test server: ${stderr?.trim() || String(err)}\n${MISSING_HINT}`);
  }
  return fs.readFileSync(path.join(out, 'classpath'), 'utf8').trim();
}

class Jena extends ManagedProcess implements JenaTestServer {
  readonly baseUrl: string;

  constructor(
    readonly dir: string,
    readonly port: number,
    private readonly classPath: string,
    private readonly startTimeoutMs: number,
  ) {
    super('jena-test-server', 15_000);
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  protected async spawn(): Promise<SpawnedProcess> {
    try {
      return await spawnLogged('java', [
        // A small heap and the serial collector: the machine's cores are shared with the other servers.
        '-Xmx768m', '-XX:+UseSerialGC',
        // Keep idle keep-alive connections for the run: the JDK server closes them after 30 s by
        // default, and an update Fedpod sends on a socket closing just then fails (it is not retried).
        '-Dsun.net.httpserver.idleInterval=3600',
        // Without it the JDK server writes headers and body in two packets, and Nagle's algorithm with
        // the client's delayed ACK holds every answer about 40 ms.
        '-Dsun.net.httpserver.nodelay=true',
        '-cp', this.classPath, 'JenaTestServer',
        '--port', String(this.port), '--dir', this.dir, '--auth', `${JENA_USER}:${JENA_PASSWORD}`,
      ], { name: 'jena-test-server', cwd: this.dir, logFile: this.reusedLogFile });
    } catch (err) {
      throw new Error(`${String(err)}\n${MISSING_HINT}`);
    }
  }

  protected async waitReady(abortIf: () => string | undefined): Promise<void> {
    await waitForHttp(`${this.baseUrl}/$/ping`, { timeoutMs: this.startTimeoutMs, abortIf });
  }

  protected startError(cause: unknown): Error {
    return new Error(`the Jena test server (${this.dir}) did not start: ${String(cause)}\n--- log tail ---\n${tailFile(this.logFile)}`);
  }
}

/** Compiles (when needed) and starts the Jena test server on a free loopback port; resolves once it answers /$/ping. */
export async function startJenaTestServer(options: StartJenaOptions = {}): Promise<JenaTestServer> {
  const classPath = await buildJenaTestServer();
  const dir = options.dir ?? makeTmpfsDir('jena');
  fs.mkdirSync(dir, { recursive: true });
  const server = new Jena(dir, await freePort(), classPath, options.startTimeoutMs ?? 60_000);
  await server.launch();
  return server;
}
