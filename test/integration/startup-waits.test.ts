/**
 * Start-up beside a busy or slow dependency: a lock another node holds, a store that answers late.
 * The server waits, says in its log what it waits for, and starts once the dependency answers; it
 * fails only after a bound (unit-tested in RetryingInitializer's tests).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import IORedis from 'ioredis';
import { claimRedisDb, sharedServers } from '../support/env';
import { eventually } from '../support/eventually';
import { freePort } from '../support/ports';
import { killByPid, makeTempDir, REPO_ROOT, spawnLogged, waitForHttp, type SpawnedProcess } from '../support/processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');

/** Starts the server with `flags`, not waiting for it: these tests watch its start-up. */
async function spawnFedpod(config: string, flags: string[], port: number): Promise<{ proc: SpawnedProcess; baseUrl: string; log: () => string }> {
  const baseUrl = `http://localhost:${port}/`;
  const proc = await spawnLogged(process.execPath, [ BIN, 'start', '--config', config, '--port', String(port), '--base-url', baseUrl,
    '--data-dir', makeTempDir('fedpod-startup-waits-'), '--store-port', String(await freePort()), ...flags ], { name: 'fedpod-startup-waits' });
  return { proc, baseUrl, log: () => fs.readFileSync(proc.logFile, 'utf8') };
}

/** Waits until the server answers /healthz, failing at once if it exits. */
async function started(server: { proc: SpawnedProcess; baseUrl: string }): Promise<void> {
  let exited = false;
  void server.proc.exited.then(() => {
    exited = true;
  });
  await waitForHttp(`${server.baseUrl}healthz`, { timeoutMs: 180_000, abortIf: () => (exited ? 'the server exited' : undefined) });
}

describe('start-up waits for what is busy or slow', () => {
  const procs: SpawnedProcess[] = [];

  afterAll(async() => {
    await Promise.all(procs.map(async(proc) => killByPid(proc.pid)));
  });

  it('waits for the instance actor\'s lock while another node holds it, says so, and starts once it is free', async() => {
    const redisUrl = claimRedisDb();
    const redis = new IORedis(redisUrl);
    try {
      const port = await freePort();
      const key = `fedpod:lock:w:http://localhost:${port}/actors/instance`;
      // Held as another node holds it (RedisReadWriteLocker's write lock), for longer than the test runs.
      await redis.set(key, 'another-node', 'PX', 600_000);
      const server = await spawnFedpod(path.join(REPO_ROOT, 'test', 'fixtures', 'config', 'activitypub-short-lock-wait.json'),
        [ '--redis-url', redisUrl ], port);
      procs.push(server.proc);
      // The setup waits 2 s for a lock: that wait fails, and start-up tries again, naming the lock.
      await eventually(async() => server.log().includes(
        `Start-up: the instance actor (its lock, the store) failed (Timed out after 2000 ms waiting for the write lock on ${server.baseUrl}actors/instance)`),
      120_000);
      await redis.del(key);
      await started(server);
      // Log lines are written asynchronously: this one may follow `ready`.
      await eventually(async() => /Start-up: the instance actor \(its lock, the store\) ready after \d+ tries/u.test(server.log()));
      const actor = await fetch(`${server.baseUrl}actors/instance`, { headers: { accept: 'application/activity+json' } });
      expect(actor.status).toBe(200);
    } finally {
      redis.disconnect();
    }
  }, 300_000);

  it('keeps the instance actor\'s lock while the store takes its write late, past the lock\'s expiry', async() => {
    // A proxy in front of the shared Virtuoso that holds the update writing the instance actor until released.
    const upstream = new URL(sharedServers().sparqlEndpoint);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    const proxy = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        const writesActor = !held && /INSERT/iu.test(text) && new URLSearchParams(text).toString().includes('actors%2Finstance');
        held ||= writesActor;
        void (writesActor ? released : Promise.resolve()).then(() => {
          const forwarded = http.request({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url,
            headers: request.headers }, (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
            answer.pipe(response);
          });
          forwarded.on('error', (error) => response.destroy(error));
          forwarded.end(body);
        });
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${upstream.pathname}`;
      const server = await spawnFedpod('activitypub', [ '--sparql-endpoint', endpoint ], await freePort());
      procs.push(server.proc);
      await eventually(async() => held, 120_000);
      // Held well past the locker's expiry (6 s): CSS's locker would fail a lock held that long unrenewed.
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      release();
      await started(server);
      // Lines are written in order, asynchronously: once this one is there, any expiry before it is too.
      await eventually(async() => server.log().includes(`Created the instance actor ${server.baseUrl}actors/instance`));
      // Other start-up writes queue behind the held one (updates are sent in groups), and CSS's locker may
      // fail theirs when they wait past its expiry: start-up tries those again. The instance actor's lock held.
      expect(server.log()).not.toMatch(/Lock expired after \d+ms on [^"]*actors\/instance/u);
      const actor = await fetch(`${server.baseUrl}actors/instance`, { headers: { accept: 'application/activity+json' } });
      expect(actor.status).toBe(200);
    } finally {
      release();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }, 300_000);
});
