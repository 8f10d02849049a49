/**
 * Start-up without a dependency: a server given a Redis URL where nothing listens must not sit there
 * half-started (alive, not serving, unnoticed by its process manager). It exits with code 1 and says
 * why, and never opens its HTTP port.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort } from '../support/ports';
import { httpStatus, killByPid, makeTempDir, REPO_ROOT, spawnLogged, type SpawnedProcess } from '../support/processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');

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
    expect(fs.readFileSync(proc.logFile, 'utf8')).toMatch(/Redis is not reachable/u);
  }, 90_000);
});

describe('start-up without queue workers and without Redis', () => {
  it('exits with code 1 at once: the jobs it accepted would never run', async() => {
    const [ port, storePort ] = [ await freePort(), await freePort() ];
    const proc = await spawnLogged(process.execPath, [ BIN, 'start', '--config', 'activitypub', '--port', String(port),
      '--data-dir', makeTempDir('fedpod-startup-'), '--store-port', String(storePort), '--no-queue-workers' ], { name: 'fedpod-no-workers' });
    const { code } = await proc.exited;
    expect(code).toBe(1);
    expect(fs.readFileSync(proc.logFile, 'utf8')).toMatch(/--no-queue-workers needs --redis-url/u);
  }, 60_000);
});
