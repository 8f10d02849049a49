/**
 * Proves the test infrastructure itself: the shared Virtuoso and Redis from
 * global setup, free ports, spawning and stopping processes by PID, the
 * watchdog, and restarts of private servers keeping their data.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import IORedis from 'ioredis';
import { claimRedisDb, sharedServers } from '../support/env';
import { startFedpod } from '../support/fedpod';
import { freePort, isPortFree } from '../support/ports';
import {
  REPO_ROOT,
  cleanupStaleRuns,
  httpStatus,
  isAlive,
  killByPid,
  killHard,
  processStartTime,
  spawnLogged,
  tailFile,
} from '../support/processes';
import { startRedis } from '../support/redis';
import { sparqlAsk, sparqlSelect, sparqlUpdate } from '../support/sparql';
import { startVirtuoso } from '../support/virtuoso';

const unique = (): string => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** True once the log has `line` as a whole line (the spawn header quotes the command, so substrings would match it). */
const logHasLine = (logFile: string, line: string): boolean => tailFile(logFile, 1_000).split('\n').includes(line);

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

describe('shared Virtuoso', () => {
  const graph = `urn:fedpod-test:infra:${unique()}`;

  afterAll(async () => {
    await sparqlUpdate(sharedServers().sparqlEndpoint, `DROP SILENT GRAPH <${graph}>`);
  });

  it('runs and is on loopback', () => {
    const { virtuosoPid, sparqlEndpoint, virtuosoUrl } = sharedServers();
    expect(isAlive(virtuosoPid)).toBe(true);
    expect(virtuosoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sparqlEndpoint).toBe(`${virtuosoUrl}/sparql`);
  });

  it('stores an INSERT DATA into a named graph and a SELECT finds it', async () => {
    const { sparqlEndpoint } = sharedServers();
    const marker = `hello ${unique()}`;
    await sparqlUpdate(
      sparqlEndpoint,
      `INSERT DATA { GRAPH <${graph}> { <urn:ex:s> <urn:ex:p> ${JSON.stringify(marker)} } }`,
    );
    const rows = await sparqlSelect(sparqlEndpoint, `SELECT ?s ?o WHERE { GRAPH <${graph}> { ?s <urn:ex:p> ?o } }`);
    expect(rows).toEqual([
      { s: { type: 'uri', value: 'urn:ex:s' }, o: expect.objectContaining({ type: 'literal', value: marker }) },
    ]);
    // ...and only in that graph.
    expect(await sparqlAsk(sparqlEndpoint, `ASK { GRAPH <${graph}-other> { ?s ?p ?o } }`)).toBe(false);
  });

  it('reports a malformed query as an error, not as an empty result', async () => {
    await expect(sparqlSelect(sharedServers().sparqlEndpoint, 'SELECT WHERE {')).rejects.toThrow(/failed with 4\d\d/);
  });
});

describe('shared Redis', () => {
  let client: IORedis | undefined;
  afterEach(() => {
    client?.disconnect();
    client = undefined;
  });

  it('answers PING and keeps a value', async () => {
    const { redisUrl, redisPid } = sharedServers();
    expect(isAlive(redisPid)).toBe(true);
    client = new IORedis(claimRedisDb(), { maxRetriesPerRequest: 1 });
    expect(await client.ping()).toBe('PONG');
    await client.set('infra-key', 'v1');
    expect(await client.get('infra-key')).toBe('v1');
    expect(redisUrl).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
  });

  it('hands out distinct databases', () => {
    expect(claimRedisDb()).not.toBe(claimRedisDb());
  });
});

describe('ports', () => {
  let holder: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((r) => (holder ? holder.close(() => r()) : r()));
    holder = undefined;
  });

  it('freePort gives a bindable port, never the same twice', async () => {
    const [a, b] = [await freePort(), await freePort()];
    expect(a).not.toBe(b);
    expect(await isPortFree(a)).toBe(true);
  });

  it('isPortFree sees a port in use', async () => {
    const port = await freePort();
    holder = createServer();
    await new Promise<void>((r) => holder?.listen(port, '127.0.0.1', r));
    expect(await isPortFree(port)).toBe(false);
  });
});

describe('processes', () => {
  // A node process that ignores SIGTERM: only SIGKILL stops it.
  // Measured: right after process.on() returns, a `node -e` process can still
  // die of SIGTERM, so it reports readiness only a moment later.
  const stubborn = [
    '-e',
    'process.on("SIGTERM", () => console.log("ignoring SIGTERM")); ' +
      'setTimeout(() => console.log("handler", "installed"), 500); setInterval(() => {}, 1000);',
  ];
  // Node can take well over a second to start on a busy machine.
  const handlerInstalled = (logFile: string): Promise<boolean> =>
    waitUntil(() => logHasLine(logFile, 'handler installed'), 20_000);

  it('spawns with output in a log file and stops by PID with SIGTERM', async () => {
    const proc = await spawnLogged(process.execPath, ['-e', 'console.log("started"); setInterval(() => {}, 1000);'], {
      name: 'infra-sleeper',
    });
    expect(isAlive(proc.pid)).toBe(true);
    expect(await waitUntil(() => logHasLine(proc.logFile, 'started'), 20_000)).toBe(true);
    await killByPid(proc.pid);
    expect(isAlive(proc.pid)).toBe(false);
    expect(await proc.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('escalates to SIGKILL when SIGTERM is ignored', async () => {
    const proc = await spawnLogged(process.execPath, stubborn, { name: 'infra-stubborn' });
    expect(await handlerInstalled(proc.logFile)).toBe(true);
    const began = Date.now();
    await killByPid(proc.pid, { graceMs: 500 });
    expect(isAlive(proc.pid)).toBe(false);
    expect(Date.now() - began).toBeGreaterThanOrEqual(500);
    expect((await proc.exited).signal).toBe('SIGKILL');
  });

  it('killHard kills at once', async () => {
    const proc = await spawnLogged(process.execPath, stubborn, { name: 'infra-stubborn' });
    await killHard(proc.pid);
    expect((await proc.exited).signal).toBe('SIGKILL');
  });

  it('rejects a command that does not exist', async () => {
    await expect(spawnLogged('/nonexistent/fedpod-binary', [], { name: 'infra-missing' })).rejects.toThrow(/ENOENT/);
  });

  it('the watchdog kills a server whose owner died', async () => {
    const owner = await spawnLogged('sleep', ['600'], { name: 'infra-owner' });
    const target = await spawnLogged('sleep', ['600'], { name: 'infra-target' });
    const watchdog = await spawnLogged(
      'bash',
      [
        path.join(REPO_ROOT, 'test/support/watchdog.sh'),
        String(target.pid),
        String(processStartTime(target.pid)),
        String(process.pid), // a second owner that stays alive: any dead owner counts
        String(processStartTime(process.pid)),
        String(owner.pid),
        String(processStartTime(owner.pid)),
      ],
      { name: 'infra-watchdog' },
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect(isAlive(target.pid)).toBe(true); // owner alive: hands off
    await killHard(owner.pid);
    expect(await waitUntil(() => !isAlive(target.pid), 5_000)).toBe(true);
    expect(await waitUntil(() => !isAlive(watchdog.pid), 5_000)).toBe(true);
  });
});

describe('cleanup of crashed runs', () => {
  const savedRoot = process.env.FEDPOD_TEST_TMP;
  afterEach(() => {
    if (savedRoot === undefined) delete process.env.FEDPOD_TEST_TMP;
    else process.env.FEDPOD_TEST_TMP = savedRoot;
  });

  /** A run directory as a jest run leaves it, owned by `owner`, listing `pids`. */
  function fakeRun(root: string, name: string, owner: { pid: number; start: number }, pids: number[]): string {
    const dir = path.join(root, name);
    fs.mkdirSync(path.join(dir, 'pids'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'owner.json'), JSON.stringify(owner));
    for (const pid of pids) {
      const record = { pid, start: processStartTime(pid), name: 'leftover', command: 'sleep' };
      fs.writeFileSync(path.join(dir, 'pids', `${pid}.json`), JSON.stringify(record));
    }
    return dir;
  }

  /** A process outside the helpers (no watchdog), like a server whose watchdog died too. */
  function orphanSleep(): number {
    const child = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
    child.unref();
    if (child.pid === undefined) throw new Error('sleep did not start');
    return child.pid;
  }

  it('kills what dead runs left behind and spares live runs', async () => {
    const root = fs.mkdtempSync(path.join(sharedServers().runDir, 'tmp-root-'));
    process.env.FEDPOD_TEST_TMP = root;
    const deadOwner = spawn('sleep', ['0.2']);
    const deadIdentity = { pid: deadOwner.pid ?? 0, start: processStartTime(deadOwner.pid ?? 0) ?? 0 };
    await new Promise((r) => deadOwner.once('exit', r));
    const [leftover, spared] = [orphanSleep(), orphanSleep()];
    try {
      const deadRun = fakeRun(root, 'run-1-dead', deadIdentity, [leftover]);
      const liveRun = fakeRun(root, 'run-2-live', { pid: process.pid, start: processStartTime(process.pid) ?? 0 }, [spared]);
      await cleanupStaleRuns(0);
      expect(isAlive(leftover)).toBe(false);
      expect(fs.existsSync(deadRun)).toBe(false);
      expect(isAlive(spared)).toBe(true);
      expect(fs.existsSync(liveRun)).toBe(true);
    } finally {
      await killHard(leftover);
      await killHard(spared);
    }
  });

  (fs.existsSync('/dev/shm') ? it : it.skip)('removes the tmpfs directories that dead runs linked to', async () => {
    const root = fs.mkdtempSync(path.join(sharedServers().runDir, 'tmp-root-'));
    process.env.FEDPOD_TEST_TMP = root;
    const deadOwner = spawn('sleep', ['0.2']);
    const deadIdentity = { pid: deadOwner.pid ?? 0, start: processStartTime(deadOwner.pid ?? 0) ?? 0 };
    await new Promise((r) => deadOwner.once('exit', r));
    const targets: string[] = [];
    const runs = ['run-1-dead', 'run-2-dead'].map((name) => {
      const run = fakeRun(root, name, deadIdentity, []);
      const target = fs.mkdtempSync('/dev/shm/fedpod-infra-');
      fs.writeFileSync(path.join(target, 'data'), 'x');
      fs.symlinkSync(target, path.join(run, `tmpfs-${path.basename(target)}`));
      targets.push(target);
      return run;
    });
    try {
      // The older run goes whole, the newer keeps its logs: both lose their tmpfs data.
      await cleanupStaleRuns(1);
      expect(fs.existsSync(runs[0])).toBe(false);
      expect(fs.existsSync(runs[1])).toBe(true);
      expect(targets.filter((target) => fs.existsSync(target))).toEqual([]);
    } finally {
      for (const target of targets) fs.rmSync(target, { recursive: true, force: true });
    }
  });
});

describe('private servers survive a crash', () => {
  it('Redis keeps acknowledged writes across kill -9 (AOF)', async () => {
    const redis = await startRedis();
    const client = new IORedis(redis.url, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
    try {
      await client.connect();
      await client.rpush('jobs', 'a', 'b');
      client.disconnect();
      const oldPid = redis.pid;
      await redis.kill9();
      expect(isAlive(oldPid)).toBe(false);
      await redis.restart();
      expect(redis.pid).not.toBe(oldPid);
      const again = new IORedis(redis.url, { maxRetriesPerRequest: 1 });
      try {
        expect(await again.lrange('jobs', 0, -1)).toEqual(['a', 'b']);
      } finally {
        again.disconnect();
      }
    } finally {
      client.disconnect();
      await redis.stop();
    }
    expect(isAlive(redis.pid)).toBe(false);
  });

  it('tells of a death nobody asked for, and not of stop, kill9 or restart', async () => {
    const redis = await startRedis();
    const crashes: string[] = [];
    redis.onCrash((why) => crashes.push(why));
    try {
      await redis.restart();
      await redis.kill9();
      await redis.restart();
      expect(crashes).toEqual([]);
      // As a crash: the process dies on its own.
      process.kill(redis.pid, 'SIGKILL');
      expect(await waitUntil(() => crashes.length === 1, 10_000)).toBe(true);
      expect(crashes[0]).toMatch(/exited with SIGKILL/u);
    } finally {
      await redis.stop();
    }
    expect(crashes).toHaveLength(1);
  });

  it('Virtuoso keeps data and the update grant across kill -9', async () => {
    const virtuoso = await startVirtuoso();
    try {
      await sparqlUpdate(virtuoso.endpoint, 'INSERT DATA { GRAPH <urn:g> { <urn:s> <urn:p> "before crash" } }');
      await virtuoso.kill9();
      await virtuoso.restart(); // restart() itself proves updates work again
      expect(await sparqlAsk(virtuoso.endpoint, 'ASK { GRAPH <urn:g> { <urn:s> <urn:p> "before crash" } }')).toBe(true);
    } finally {
      await virtuoso.stop();
    }
    expect(isAlive(virtuoso.pid)).toBe(false);
    expect(fs.existsSync(path.join(virtuoso.dir, 'virtuoso.db'))).toBe(true);
  });
});

// The server is written in parallel with this infrastructure; this smoke test
// runs as soon as bin/fedpod.js exists.
const serverBuilt = fs.existsSync(path.join(REPO_ROOT, 'bin', 'fedpod.js'));
(serverBuilt ? describe : describe.skip)('startFedpod', () => {
  it('starts the real server, restarts it on the same port, and stops it', async () => {
    const { sparqlEndpoint } = sharedServers();
    const fedpod = await startFedpod({ config: 'ldp', sparqlEndpoint });
    try {
      expect(fedpod.baseUrl).toBe(`http://localhost:${fedpod.port}/`);
      expect(await httpStatus(`${fedpod.baseUrl}healthz`)).toBe(200);
      const firstPid = fedpod.pid;
      await fedpod.kill9();
      expect(await httpStatus(`${fedpod.baseUrl}healthz`)).toBeUndefined();
      await fedpod.restart();
      expect(fedpod.pid).not.toBe(firstPid);
      expect(await httpStatus(`${fedpod.baseUrl}healthz`)).toBe(200);
    } finally {
      await fedpod.stop();
    }
    expect(isAlive(fedpod.pid)).toBe(false);
  });

  it('reports a failed start with the tail of the server log', async () => {
    const attempt = startFedpod({ config: '/nonexistent/fedpod-config.json', startTimeoutMs: 30_000 });
    // The tail comes from the log file: the spawn header line, then whatever
    // the server printed (its wording is not this test's business).
    await expect(attempt).rejects.toThrow(
      /did not become healthy: .*fedpod exited with [\s\S]*\(tail\) ---\n\s*### [^\n]*bin\/fedpod\.js start --config \/nonexistent\/[^\n]*\n\s*\S/,
    );
  });
});
