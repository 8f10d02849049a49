/**
 * Apache Jena Fuseki's standalone server (the jar scripts/fetch-fuseki.sh has Maven fetch: the
 * admin protocol, TDB2, a shiro login), run as docs/operations.md tells operators to run it, so the
 * store tests run on the production store Fedpod names, through the same admin calls.
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
  waitForHttp,
  type SpawnedProcess,
} from './processes';

const execFileAsync = promisify(execFile);
const FETCH_SCRIPT = path.join(REPO_ROOT, 'scripts', 'fetch-fuseki.sh');
const MISSING_HINT = 'Fuseki, java or Maven is missing: run `bash scripts/ensure-test-deps.sh` (as root) or `npm test`';
/** Fedpod's default --sparql-user/--sparql-password, so that a Fedpod needs no options to log in. */
export const FUSEKI_USER = 'admin';
export const FUSEKI_PASSWORD = 'admin';
export const FUSEKI_AUTH = `Basic ${Buffer.from(`${FUSEKI_USER}:${FUSEKI_PASSWORD}`).toString('base64')}`;

/**
 * Basic auth on everything but /$/ping, as docs/operations.md sets Fuseki up. Without sessions:
 * Fuseki 5's server gives Shiro no session manager, and a login that asks for one fails (500).
 */
export function shiroIni(user: string, password: string): string {
  return `[main]
securityManager.subjectDAO.sessionStorageEvaluator.sessionStorageEnabled = false

[users]
${user} = ${password}

[urls]
/$/ping = anon
/** = noSessionCreation, authcBasic, user[${user}]
`;
}

/** stop: the JVM's shutdown hook releases the TDB2 databases; kill9: TDB2 keeps every committed transaction. */
export interface FusekiServer extends ManagedServer {
  /** http://127.0.0.1:PORT (the base Fedpod's --sparql-endpoint takes). */
  baseUrl: string;
  port: number;
  /** FUSEKI_BASE: shiro.ini, configuration/ (one assembler per dataset), databases/ (TDB2). */
  dir: string;
  /** The runnable jar it runs. */
  jar: string;
}

export interface StartFusekiOptions {
  /**
   * Default: a new directory on tmpfs, linked from the run directory (makeTmpfsDir): TDB2 syncs
   * every commit to disk, and a busy disk would make Fuseki the slowest of the stores by far.
   */
  dir?: string;
  /** Written to FUSEKI_BASE/shiro.ini when there is none; default shiroIni(FUSEKI_USER, FUSEKI_PASSWORD). */
  shiroIni?: string;
  /** Fuseki's own options; default the ones docs/operations.md gives (but the port, always a free one). */
  args?: readonly string[];
  startTimeoutMs?: number;
}

/** The options docs/operations.md starts Fuseki with, less --port. */
export const FUSEKI_ARGS: readonly string[] = [ '--localhost', '--set', 'tdb:unionDefaultGraph=true' ];

/** The runnable jar; fetched by Maven (from its cache once fetched) the first time. */
async function fusekiJar(): Promise<string> {
  try {
    const { stdout } = await execFileAsync('bash', [ FETCH_SCRIPT ], { timeout: 600_000 });
    return stdout.trim();
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`could not fetch Fuseki: ${stderr?.trim() || String(err)}\n${MISSING_HINT}`);
  }
}

class Fuseki extends ManagedProcess implements FusekiServer {
  readonly baseUrl: string;

  constructor(
    readonly dir: string,
    readonly port: number,
    readonly jar: string,
    private readonly args: readonly string[],
    private readonly startTimeoutMs: number,
  ) {
    super('fuseki', 15_000);
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  protected async spawn(): Promise<SpawnedProcess> {
    try {
      return await spawnLogged('java', [
        // A small heap and the serial collector: the machine's cores are shared with the other servers.
        '-Xmx768m', '-XX:+UseSerialGC',
        '-jar', this.jar, '--port', String(this.port), ...this.args,
      ], { name: 'fuseki', cwd: this.dir, env: { FUSEKI_BASE: this.dir }, logFile: this.reusedLogFile });
    } catch (err) {
      throw new Error(`${String(err)}\n${MISSING_HINT}`);
    }
  }

  protected async waitReady(abortIf: () => string | undefined): Promise<void> {
    await waitForHttp(`${this.baseUrl}/$/ping`, { timeoutMs: this.startTimeoutMs, abortIf });
  }

  protected startError(cause: unknown): Error {
    return new Error(`Fuseki (${this.dir}) did not start: ${String(cause)}\n--- log tail ---\n${tailFile(this.logFile)}`);
  }
}

/** Fetches (when needed) and starts Fuseki on a free loopback port; resolves once it answers /$/ping. */
export async function startFuseki(options: StartFusekiOptions = {}): Promise<FusekiServer> {
  const jar = await fusekiJar();
  const dir = options.dir ?? makeTmpfsDir('fuseki');
  fs.mkdirSync(dir, { recursive: true });
  const shiro = path.join(dir, 'shiro.ini');
  if (!fs.existsSync(shiro)) fs.writeFileSync(shiro, options.shiroIni ?? shiroIni(FUSEKI_USER, FUSEKI_PASSWORD));
  // A JVM starting next to the other servers on a busy machine takes its time: 10 s when idle.
  const server = new Fuseki(dir, await freePort(), jar, options.args ?? FUSEKI_ARGS, options.startTimeoutMs ?? 180_000);
  await server.launch();
  return server;
}
