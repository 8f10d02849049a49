/**
 * Spawning and stopping the real servers the integration tests talk to.
 *
 * Every test run owns a directory (FEDPOD_TEST_RUN_DIR) holding logs, data
 * directories and one PID record per spawned process. Servers cannot outlive
 * a crashed jest: each gets a detached watchdog (watchdog.sh) that kills it
 * once its owner process is gone, and the next run's global setup kills
 * whatever the records of dead runs still list (cleanupStaleRuns).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
const WATCHDOG = path.join(__dirname, 'watchdog.sh');
const RUN_DIR_ENV = 'FEDPOD_TEST_RUN_DIR';

/** Parent of all run directories (gitignored). */
export function testTmpRoot(): string {
  return process.env.FEDPOD_TEST_TMP ?? path.join(REPO_ROOT, '.test-tmp');
}

interface ProcessIdentity {
  pid: number;
  /** /proc start time (clock ticks since boot): tells a recycled PID apart. */
  start: number;
}

interface PidRecord extends ProcessIdentity {
  name: string;
  command: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- /proc

/** State letter and start time from /proc/PID/stat, or undefined if gone. */
function procStat(pid: number): { state: string; start: number } | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Field 2 (the command name) may contain spaces: split after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], start: Number(fields[19]) };
}

export function processStartTime(pid: number): number | undefined {
  return procStat(pid)?.start;
}

/** Running and not a zombie (an unreaped dead child still answers kill 0). */
export function isAlive(pid: number, start?: number): boolean {
  const stat = procStat(pid);
  if (stat === undefined || stat.state === 'Z') return false;
  return start === undefined || stat.start === start;
}

function identity(pid: number): ProcessIdentity {
  const start = processStartTime(pid);
  if (start === undefined) throw new Error(`process ${pid} vanished`);
  return { pid, start };
}

// ---------------------------------------------------------------- run dir

/**
 * This run's directory; created on first use when global setup did not
 * (e.g. a helper used from a script), owned then by the current process.
 */
export function runDir(): string {
  const existing = process.env[RUN_DIR_ENV];
  if (existing !== undefined && fs.existsSync(existing)) return existing;
  return createRunDir();
}

export function createRunDir(): string {
  fs.mkdirSync(testTmpRoot(), { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = fs.mkdtempSync(path.join(testTmpRoot(), `run-${stamp}-`));
  fs.mkdirSync(path.join(dir, 'logs'));
  fs.mkdirSync(path.join(dir, 'pids'));
  fs.writeFileSync(path.join(dir, 'owner.json'), JSON.stringify(identity(process.pid)));
  process.env[RUN_DIR_ENV] = dir;
  return dir;
}

/** A fresh directory under the run directory (data dirs, database files). */
/**
 * The environment a spawned server gets: this one without Jest's markers, which make libraries take
 * test-only paths (CSS then loads oidc-provider through `jest.requireActual`, which is not defined
 * outside Jest). A server under test runs as it runs in production.
 */
function serverEnvironment(): NodeJS.ProcessEnv {
  const { JEST_WORKER_ID: worker, NODE_ENV: nodeEnv, ...rest } = process.env;
  void worker;
  // Except for rate limits: the suites make dozens of accounts and hundreds of writes from one address
  // in seconds, far past any person's use. A test of the limits starts its server with FEDPOD_RATE_LIMITS=true.
  const limits = { FEDPOD_RATE_LIMITS: rest.FEDPOD_RATE_LIMITS ?? 'false' };
  return nodeEnv === 'test' ? { ...rest, ...limits } : { ...rest, ...limits, ...nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv } };
}

export function makeTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(runDir(), `${prefix}-`));
}

const TMPFS = '/dev/shm';
/** Run-dir entries that link to a directory on tmpfs: removeRunData removes what they link to as well. */
const TMPFS_LINK = 'tmpfs-';

/**
 * A fresh directory on tmpfs when the machine has one (else as makeTempDir), linked from the run
 * directory so that its data goes with the run's: for a store that syncs every commit to disk,
 * where the tests want its files and transactions but not the wait for the disk.
 */
export function makeTmpfsDir(prefix: string): string {
  try {
    fs.accessSync(TMPFS, fs.constants.W_OK);
  } catch {
    return makeTempDir(prefix);
  }
  const dir = fs.mkdtempSync(path.join(TMPFS, `fedpod-${prefix}-`));
  fs.symlinkSync(dir, path.join(runDir(), `${TMPFS_LINK}${path.basename(dir)}`));
  return dir;
}

let logCounter = 0;
function newLogFile(name: string): string {
  logCounter += 1;
  // Jest loads this module once per test file's registry, so the counter
  // alone could repeat within one process: add a random tag.
  const tag = Math.random().toString(36).slice(2, 6);
  const file = `${name}-${process.pid}-${logCounter}-${tag}.log`;
  return path.join(runDir(), 'logs', file);
}

function pidRecordPath(dir: string, pid: number): string {
  return path.join(dir, 'pids', `${pid}.json`);
}

// ---------------------------------------------------------------- spawn

export interface SpawnOptions {
  /** Short name used for the log file and in error messages. */
  name: string;
  cwd?: string;
  /** Added to (not replacing) the current environment. */
  env?: NodeJS.ProcessEnv;
  /** Append to this log instead of a new one (restarts keep one log). */
  logFile?: string;
}

export interface SpawnedProcess {
  pid: number;
  logFile: string;
  child: ChildProcess;
  /** Resolves when the process exits (never rejects). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `command` with stdout+stderr appended to a log file under the run
 * directory, records its PID and attaches a watchdog. Resolves once the OS
 * has started it; rejects if it could not be started (e.g. ENOENT).
 */
export async function spawnLogged(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): Promise<SpawnedProcess> {
  const logFile = options.logFile ?? newLogFile(options.name);
  fs.appendFileSync(logFile, `\n### ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const fd = fs.openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...serverEnvironment(), ...options.env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    fs.closeSync(fd); // the child has its own copy
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) => reject(new Error(`cannot start ${options.name} (${command}): ${err.message}`)));
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: spawned without a pid`);
  // The child keeps no pipe to us; do not let it hold jest's event loop open.
  child.unref();
  recordAndGuard(pid, options.name, [command, ...args].join(' '));
  return { pid, logFile, child, exited };
}

/** This process and, if different, the one that owns the run (jest's main process). */
function owners(): ProcessIdentity[] {
  const self = identity(process.pid);
  const runOwner = readJson<ProcessIdentity>(path.join(runDir(), 'owner.json'));
  return runOwner === undefined || runOwner.pid === self.pid ? [self] : [self, runOwner];
}

function recordAndGuard(pid: number, name: string, command: string): void {
  const start = processStartTime(pid);
  if (start === undefined) return; // already exited and reaped: nothing to guard
  const target = { pid, start };
  const record: PidRecord = { ...target, name, command };
  fs.writeFileSync(pidRecordPath(runDir(), pid), JSON.stringify(record));
  const args = [WATCHDOG, String(target.pid), String(target.start)];
  for (const owner of owners()) args.push(String(owner.pid), String(owner.start));
  const watchdog = spawn('bash', args, { detached: true, stdio: 'ignore' });
  watchdog.on('error', () => undefined); // best effort; stale-run cleanup is the backstop
  watchdog.unref();
}

// ---------------------------------------------------------------- stop

async function waitUntilDead(pid: number, start: number | undefined, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid, start)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

function forgetPid(pid: number): void {
  const dir = process.env[RUN_DIR_ENV];
  if (dir !== undefined) fs.rmSync(pidRecordPath(dir, pid), { force: true });
}

/**
 * SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone.
 * `start` (from processStartTime) guards against signalling a recycled PID.
 */
export async function killByPid(pid: number, options: { graceMs?: number; start?: number } = {}): Promise<void> {
  const { graceMs = 10_000, start } = options;
  if (isAlive(pid, start)) {
    signal(pid, 'SIGTERM');
    if (!(await waitUntilDead(pid, start, graceMs))) {
      signal(pid, 'SIGKILL');
      if (!(await waitUntilDead(pid, start, 10_000))) throw new Error(`process ${pid} survived SIGKILL`);
    }
  }
  forgetPid(pid);
}

/** SIGKILL (a crash, as far as the process can tell); resolves once gone. */
export async function killHard(pid: number, start?: number): Promise<void> {
  if (isAlive(pid, start)) {
    signal(pid, 'SIGKILL');
    if (!(await waitUntilDead(pid, start, 10_000))) throw new Error(`process ${pid} survived SIGKILL`);
  }
  forgetPid(pid);
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/**
 * After a kill: wait (briefly) for node to reap its child, so no zombie is
 * left when the test process exits right after.
 */
export async function reaped(proc: SpawnedProcess | undefined, timeoutMs = 2_000): Promise<void> {
  if (proc === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([proc.exited, timeout]);
  clearTimeout(timer); // a pending timer would keep jest alive
}

// ---------------------------------------------------------------- readiness

/** Status code of a GET, or undefined if no answer (refused, timeout). */
export function httpStatus(url: string, timeoutMs = 5_000): Promise<number | undefined> {
  return new Promise((resolve) => {
    // agent:false => no keep-alive socket left behind to hold jest open.
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

export interface WaitForHttpOptions {
  timeoutMs: number;
  /** Status that means "ready"; default 200. */
  expectStatus?: number;
  intervalMs?: number;
  /** Polled between attempts: a returned message aborts the wait (e.g. process exited). */
  abortIf?: () => string | undefined;
}

/** Polls `url` until it answers `expectStatus`; rejects on timeout or abort. */
export async function waitForHttp(url: string, options: WaitForHttpOptions): Promise<void> {
  // Short: before the server listens an attempt is a refused connection, which costs nothing, and every
  // test that starts a server waits on this (half the interval, on average, after the server is up).
  const { timeoutMs, expectStatus = 200, intervalMs = 50, abortIf } = options;
  const deadline = Date.now() + timeoutMs;
  let last: number | undefined;
  for (;;) {
    last = await httpStatus(url, Math.min(5_000, Math.max(1, deadline - Date.now())));
    if (last === expectStatus) return;
    const reason = abortIf?.();
    if (reason !== undefined) throw new Error(`gave up waiting for ${url}: ${reason}`);
    if (Date.now() >= deadline) {
      throw new Error(`${url} did not answer ${expectStatus} within ${timeoutMs} ms (last: ${last ?? 'no answer'})`);
    }
    await sleep(intervalMs);
  }
}

/** Last `lines` lines of a log file, for error messages. */
export function tailFile(file: string, lines = 40): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return `(no log at ${file})`;
  }
  return text.split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------- stale runs

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/**
 * Kills the processes of earlier runs whose jest is gone (crashed or killed)
 * and deletes their directories, keeping the newest `keep` for their logs.
 * Runs whose owner is alive (a concurrent `npm test`) are left alone.
 */
export async function cleanupStaleRuns(keep = 3): Promise<void> {
  const root = testTmpRoot();
  if (!fs.existsSync(root)) return;
  const dead: string[] = [];
  for (const entry of fs.readdirSync(root)) {
    const dir = path.join(root, entry);
    if (!entry.startsWith('run-') || dir === process.env[RUN_DIR_ENV]) continue;
    const owner = readJson<ProcessIdentity>(path.join(dir, 'owner.json'));
    if (owner !== undefined && isAlive(owner.pid, owner.start)) continue;
    await killRecorded(dir);
    dead.push(dir);
  }
  // Names start with an ISO timestamp, so lexical order is age order.
  dead.sort();
  const cut = Math.max(0, dead.length - keep);
  for (const dir of dead.slice(0, cut)) {
    removeRunData(dir); // first: removing the directory alone would leave what its tmpfs links point to
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const dir of dead.slice(cut)) removeRunData(dir);
}

/** Deletes a run's data directories (those on tmpfs too), keeping its logs. */
export function removeRunData(dir: string): void {
  for (const entry of fs.readdirSync(dir)) {
    if (entry === 'logs' || entry === 'owner.json') continue;
    const file = path.join(dir, entry);
    if (entry.startsWith(TMPFS_LINK) && fs.lstatSync(file).isSymbolicLink()) {
      const target = fs.readlinkSync(file);
      if (path.dirname(target) === TMPFS) fs.rmSync(target, { recursive: true, force: true });
    }
    fs.rmSync(file, { recursive: true, force: true });
  }
}

async function killRecorded(dir: string): Promise<void> {
  const pidsDir = path.join(dir, 'pids');
  if (!fs.existsSync(pidsDir)) return;
  for (const file of fs.readdirSync(pidsDir)) {
    const record = readJson<PidRecord>(path.join(pidsDir, file));
    if (record !== undefined && isAlive(record.pid, record.start)) {
      console.warn(`[fedpod-test] killing leftover ${record.name} (pid ${record.pid}) from ${dir}`);
      await killByPid(record.pid, { start: record.start, graceMs: 5_000 });
    }
    fs.rmSync(path.join(pidsDir, file), { force: true });
  }
}
