/**
 * A private OpenLink Virtuoso 7.2 (Debian's virtuoso-opensource) on loopback.
 * Fresh start takes a few seconds (database files are created); a restart on
 * the same directory is quicker and keeps data, grants included.
 */
import { ManagedProcess, type ManagedServer } from './managed-process';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports';
import {
  makeTempDir,
  spawnLogged,
  tailFile,
  waitForHttp,
  type SpawnedProcess,
} from './processes';
import { sparqlAsk, sparqlUpdate } from './sparql';

const execFileAsync = promisify(execFile);
const TEMPLATE = path.join(__dirname, 'virtuoso.ini.template');
const SERVER_BIN = 'virtuoso-t';
const ISQL_BIN = 'isql-vt';
const MISSING_HINT = 'Virtuoso is not installed: run `bash scripts/ensure-test-deps.sh` (as root) or `npm test`';

/** stop: Virtuoso checkpoints and exits cleanly; kill9: its transaction log is replayed on restart. */
export interface VirtuosoServer extends ManagedServer {
  /** SPARQL query and update endpoint: http://127.0.0.1:PORT/sparql */
  endpoint: string;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  httpPort: number;
  isqlPort: number;
  dir: string;
}

export interface StartVirtuosoOptions {
  /** Default: a new directory under the run directory. */
  dir?: string;
  startTimeoutMs?: number;
}

function renderIni(dir: string, httpPort: number, isqlPort: number): string {
  const ini = fs
    .readFileSync(TEMPLATE, 'utf8')
    .replaceAll('{{DIR}}', dir)
    .replaceAll('{{HTTP_PORT}}', String(httpPort))
    .replaceAll('{{ISQL_PORT}}', String(isqlPort));
  const file = path.join(dir, 'virtuoso.ini');
  fs.writeFileSync(file, ini);
  fs.mkdirSync(path.join(dir, 'vsp'), { recursive: true });
  return file;
}

/** Runs SQL through isql; isql exits 0 even on SQL errors, so read stderr. */
export async function virtuosoSql(isqlPort: number, sql: string): Promise<string> {
  const { stdout, stderr } = await execFileAsync(
    ISQL_BIN,
    [`127.0.0.1:${isqlPort}`, 'dba', 'dba', `exec=${sql}`],
    { timeout: 30_000 },
  );
  if (stderr.includes('*** Error')) throw new Error(`isql: ${stderr.trim()}`);
  return stdout;
}

/** Lets anonymous HTTP clients (user "SPARQL") run SPARQL updates. */
async function grantAnonymousUpdate(isqlPort: number): Promise<void> {
  try {
    await virtuosoSql(isqlPort, 'GRANT SPARQL_UPDATE TO "SPARQL";');
  } catch (err) {
    // Persisted from an earlier start on the same directory: fine.
    if (!String(err).includes('already have role')) throw err;
  }
}

/** Proves anonymous updates work: insert and remove a probe triple. */
async function probeUpdate(endpoint: string): Promise<void> {
  const graph = '<urn:fedpod-test:probe>';
  await sparqlUpdate(endpoint, `INSERT DATA { GRAPH ${graph} { <urn:s> <urn:p> "probe" } }`);
  const found = await sparqlAsk(endpoint, `ASK { GRAPH ${graph} { <urn:s> <urn:p> "probe" } }`);
  if (!found) throw new Error('Virtuoso accepted the probe INSERT but does not return it');
  await sparqlUpdate(endpoint, `DROP SILENT GRAPH ${graph}`);
}

class Virtuoso extends ManagedProcess implements VirtuosoServer {
  readonly endpoint: string;
  readonly baseUrl: string;

  constructor(
    readonly dir: string,
    readonly httpPort: number,
    readonly isqlPort: number,
    private readonly iniFile: string,
    private readonly startTimeoutMs: number,
  ) {
    // Virtuoso checkpoints on SIGTERM, which can take a while.
    super('virtuoso', 30_000);
    this.baseUrl = `http://127.0.0.1:${httpPort}`;
    this.endpoint = `${this.baseUrl}/sparql`;
  }

  protected async spawn(): Promise<SpawnedProcess> {
    try {
      return await spawnLogged(SERVER_BIN, ['+foreground', '+configfile', this.iniFile], {
        name: 'virtuoso',
        cwd: this.dir,
        logFile: this.reusedLogFile,
      });
    } catch (err) {
      throw new Error(`${String(err)}\n${MISSING_HINT}`);
    }
  }

  protected async waitReady(abortIf: () => string | undefined): Promise<void> {
    await waitForHttp(`${this.endpoint}?query=${encodeURIComponent('ASK {}')}`, {
      timeoutMs: this.startTimeoutMs,
      abortIf,
    });
    await grantAnonymousUpdate(this.isqlPort);
    await probeUpdate(this.endpoint);
  }

  protected startError(cause: unknown): Error {
    return new Error(`Virtuoso (${this.dir}) did not start: ${String(cause)}\n--- log tail ---\n${tailFile(this.logFile)}`);
  }
}

/** Starts Virtuoso on two free loopback ports; resolves when updates work. */
export async function startVirtuoso(options: StartVirtuosoOptions = {}): Promise<VirtuosoServer> {
  const dir = options.dir ?? makeTempDir('virtuoso');
  fs.mkdirSync(dir, { recursive: true });
  const [httpPort, isqlPort] = [await freePort(), await freePort()];
  const iniFile = renderIni(dir, httpPort, isqlPort);
  const server = new Virtuoso(dir, httpPort, isqlPort, iniFile, options.startTimeoutMs ?? 90_000);
  await server.launch();
  return server;
}
