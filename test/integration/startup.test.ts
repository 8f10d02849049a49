/**
 * Start-up without a dependency: a server given a Redis URL where nothing listens must not sit there
 * half-started (alive, not serving, unnoticed by its process manager). It exits with code 1 and says
 * why, and never opens its HTTP port.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { freePort } from '../support/ports';
import { httpStatus, killByPid, makeTempDir, REPO_ROOT, spawnLogged, type SpawnedProcess } from '../support/processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
/** A test setup that imports the Redis backend part itself (relative to the repository, where the server starts). */
const ON_REDIS = path.join('test', 'fixtures', 'config', 'activitypub-short-lock-wait.json');

describe('start-up with an unreachable Redis', () => {
  let proc: SpawnedProcess | undefined;

  afterAll(async() => {
    if (proc) {
      await killByPid(proc.pid);
    }
  });

  it('exits with code 1 and a clear error, never serving', async() => {
    const [ port, storePort, redisPort ] = [ await freePort(), await freePort(), await freePort() ];
    const dataDir = makeTempDir('fedpod-startup-');
    proc = await spawnLogged(process.execPath, [ BIN, 'start', '--config', 'activitypub', '--port', String(port),
      '--data-dir', dataDir, '--store-port', String(storePort), '--redis-url', `redis://127.0.0.1:${redisPort}` ],
    { name: 'fedpod-startup' });
    let served: number | undefined;
    const watching = (async(): Promise<void> => {
      for (let exited = false; !exited && served === undefined;) {
        served = await httpStatus(`http://127.0.0.1:${port}/healthz`, 1_000);
        exited = await Promise.race([ proc!.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 250)) ]);
      }
    })();
    const { code } = await proc.exited;
    await watching;
    expect(code).toBe(1);
    expect(served).toBeUndefined();
    expect(fs.readFileSync(proc.logFile, 'utf8')).toMatch(new RegExp(`--redis-url redis://127\\.0\\.0\\.1:${redisPort}: cannot reach`, 'u'));
  }, 90_000);

  it('does the same for a config that imports the Redis backend part itself', async() => {
    const [ port, storePort, redisPort ] = [ await freePort(), await freePort(), await freePort() ];
    const spawned = await spawnLogged(process.execPath, [ BIN, 'start', '--config', ON_REDIS, '--port', String(port),
      '--data-dir', makeTempDir('fedpod-startup-'), '--store-port', String(storePort), '--redis-url', `redis://127.0.0.1:${redisPort}` ],
    { name: 'fedpod-startup-own-backend' });
    const { code } = await spawned.exited;
    expect(code).toBe(1);
    const log = fs.readFileSync(spawned.logFile, 'utf8');
    expect(log).toMatch(new RegExp(`--redis-url redis://127\\.0\\.0\\.1:${redisPort}: cannot reach`, 'u'));
    expect(log).not.toMatch(/ready:/u);
  }, 90_000);
});

describe('start-up without queue workers and without Redis', () => {
  it('exits with code 1 at once: the jobs it accepted would never run', async() => {
    const [ port, storePort ] = [ await freePort(), await freePort() ];
    const proc = await spawnLogged(process.execPath, [ BIN, 'start', '--config', 'activitypub', '--port', String(port),
      '--data-dir', makeTempDir('fedpod-startup-'), '--store-port', String(storePort), '--no-queue-workers' ], { name: 'fedpod-no-workers' });
    const { code } = await proc.exited;
    expect(code).toBe(1);
    expect(fs.readFileSync(proc.logFile, 'utf8')).toMatch(/--no-queue-workers needs the redis backend \(--redis-url\)/u);
  }, 60_000);
});

describe('flags checked before anything is loaded', () => {
  /** Starts the server with `flags` on a data directory that does not exist yet; resolves with its exit code and log. */
  async function start(flags: string[]): Promise<{ code: number | null; log: string; dataDirCreated: boolean }> {
    const dataDir = path.join(makeTempDir('fedpod-flags-'), 'data');
    const proc = await spawnLogged(process.execPath, [ BIN, 'start', '--data-dir', dataDir, '--store-port', String(await freePort()),
      ...flags ], { name: 'fedpod-flags' });
    const { code } = await proc.exited;
    return { code, log: fs.readFileSync(proc.logFile, 'utf8'), dataDirCreated: fs.existsSync(dataDir) };
  }

  it.each([
    [[ '--port', 'abc' ], /--port must be a whole number from 1 to 65535/u ],
    [[ '--port', '99999' ], /--port must be a whole number from 1 to 65535 \(got 99999\)/u ],
    [[ '--base-url', 'not-a-url' ], /--base-url must be a URL \(http or https\)/u ],
    [[ '--max-body-size', '-5' ], /--max-body-size must be a whole number/u ],
    [[ '--config', 'no-such-setup' ], /--config no-such-setup: no such config/u ],
    [[ '--backend', 'redis' ], /--backend redis: give its Redis with --redis-url/u ],
    [[ '--config', ON_REDIS ], /the config imports the redis backend: give its Redis with --redis-url/u ],
    [[ '--config', ON_REDIS, '--backend', 'local' ], /--backend local: the config imports the redis backend/u ],
    [[ '--backend', 'local', '--redis-url', 'redis://127.0.0.1:6379' ], /--backend local: queues, locks and change counters stay in this process/u ],
    [[ '--backend', 'nosql' ], /backend.*Given: "nosql"/su ],
  ])('refuses %j naming the flag, writing nothing', async(flags, message) => {
    const { code, log, dataDirCreated } = await start(flags);
    expect(code).toBe(1);
    expect(log).toMatch(message);
    expect(log).not.toMatch(/ready|\n\s+at /u);
    expect(dataDirCreated).toBe(false);
  }, 60_000);

  it('refuses an unreachable store, naming --sparql-endpoint', async() => {
    const closed = await freePort();
    const { code, log, dataDirCreated } = await start([ '--port', String(await freePort()), '--sparql-endpoint', `http://127.0.0.1:${closed}/` ]);
    expect(code).toBe(1);
    expect(log).toMatch(new RegExp(`--sparql-endpoint http://127\\.0\\.0\\.1:${closed}/: cannot reach`, 'u'));
    expect(dataDirCreated).toBe(false);
  }, 60_000);

  it('refuses a busy port before ready, naming it, with nothing written to the data directory', async() => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const { code, log, dataDirCreated } = await start([ '--port', String(port) ]);
      expect(code).toBe(1);
      expect(log).toMatch(new RegExp(`--port ${port} is in use by another process`, 'u'));
      expect(log).not.toMatch(/ready/u);
      expect(dataDirCreated).toBe(false);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  }, 60_000);

  it('binds --host only', async() => {
    const port = await freePort();
    const dataDir = makeTempDir('fedpod-host-');
    const proc = await spawnLogged(process.execPath, [ BIN, 'start', '--config', 'ldp', '--port', String(port), '--host', '127.0.0.1',
      '--data-dir', dataDir, '--store-port', String(await freePort()) ], { name: 'fedpod-host' });
    try {
      let status: number | undefined;
      for (let tries = 0; tries < 240 && status === undefined; tries += 1) {
        status = await httpStatus(`http://127.0.0.1:${port}/healthz`, 1_000);
        if (status === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status).toBe(200);
      // Another address of this machine is not bound: the same port there is free to take.
      const other = net.createServer();
      const external = Object.values((await import('node:os')).networkInterfaces()).flat()
        .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
      if (external) {
        await new Promise<void>((resolve, reject) => {
          other.once('error', reject);
          other.listen(port, external, resolve);
        });
        await new Promise((resolve) => other.close(resolve));
      }
    } finally {
      await killByPid(proc.pid);
    }
  }, 120_000);
});

describe('configs compiled at build', () => {
  /** Starts the server with `config`, waits until it serves, and resolves with its log so far. */
  async function startAndRead(config: string): Promise<string> {
    const port = await freePort();
    const proc = await spawnLogged(process.execPath, [ BIN, 'start', '--config', config, '--port', String(port),
      '--data-dir', makeTempDir('fedpod-compiled-'), '--store-port', String(await freePort()) ], { name: 'fedpod-compiled' });
    try {
      let status: number | undefined;
      for (let tries = 0; tries < 480 && status !== 200; tries += 1) {
        status = await httpStatus(`http://127.0.0.1:${port}/healthz`, 1_000);
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status).toBe(200);
      return fs.readFileSync(proc.logFile, 'utf8');
    } finally {
      await killByPid(proc.pid);
    }
  }

  it('starts a named setup from its compiled module, and a config given by path from the JSON-LD itself', async() => {
    expect(await startAndRead('ldp')).toMatch(/loading \S*config\/ldp\.json on the local backend \(compiled at build\)/u);
    const byPath = await startAndRead(path.join(REPO_ROOT, 'config', 'ldp.json'));
    expect(byPath).toMatch(/loading .*ldp\.json on the local backend \(store/u);
    expect(byPath).not.toContain('compiled at build');
  }, 240_000);
});
