/**
 * A private redis-server (Debian's redis-server 7.0) on loopback, with the
 * append-only file on so that queued BullMQ jobs survive a restart.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import { ManagedProcess, type ManagedServer } from './managed-process';
import { freePort } from './ports';
import {
  makeTempDir,
  spawnLogged,
  tailFile,
  type SpawnedProcess,
} from './processes';

const SERVER_BIN = 'redis-server';
export const REDIS_DATABASES = 1024;
const MISSING_HINT = 'redis-server is not installed: run `bash scripts/ensure-test-deps.sh` (as root) or `npm test`';

/** stop: redis flushes the AOF and exits; kill9: data acknowledged before it is kept (see below). */
export interface RedisServer extends ManagedServer {
  /** redis://127.0.0.1:PORT */
  url: string;
  port: number;
  dir: string;
}

export interface StartRedisOptions {
  /** Default: a new directory under the run directory. */
  dir?: string;
  startTimeoutMs?: number;
  /**
   * AOF fsync policy; default everysec (see redisArgs). `always`: every acknowledged write is on
   * disk before the reply, for tests that claim no acknowledged job is ever lost.
   */
  appendfsync?: 'always' | 'everysec';
}

function redisArgs(port: number, dir: string, appendfsync: 'always' | 'everysec' = 'everysec'): string[] {
  return [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--save', '',
    '--appendonly', 'yes',
    // everysec, not always: redis write()s the AOF to the kernel before it
    // replies (unless a slow fsync makes it postpone, at most 2 s), so a
    // killed *process* -- what tests do -- keeps acknowledged jobs; fsync
    // only matters if the whole machine dies, and `always` would fsync on
    // every BullMQ command and slow every test.
    '--appendfsync', appendfsync,
    '--dir', dir,
    // Many logical databases, so each test can claim its own (see
    // claimRedisDb in env.ts) and BullMQ queues of concurrent tests never mix.
    '--databases', String(REDIS_DATABASES),
    '--daemonize', 'no',
    '--protected-mode', 'yes',
  ];
}

/** Sends PING over a raw socket; true on +PONG. */
export function redisPing(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.on('error', () => done(false));
  });
}

// redis answers PING only once it has loaded the AOF, so PONG means ready.
async function waitForPong(port: number, timeoutMs: number, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await redisPing(port))) {
    const reason = exited();
    if (reason !== undefined) throw new Error(reason);
    if (Date.now() > deadline) throw new Error(`no PONG within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

class Redis extends ManagedProcess implements RedisServer {
  readonly url: string;

  constructor(
    readonly dir: string,
    readonly port: number,
    private readonly startTimeoutMs: number,
    private readonly appendfsync?: 'always' | 'everysec',
  ) {
    super('redis-server', 10_000);
    this.url = `redis://127.0.0.1:${port}`;
  }

  protected async spawn(): Promise<SpawnedProcess> {
    try {
      return await spawnLogged(SERVER_BIN, redisArgs(this.port, this.dir, this.appendfsync), {
        name: 'redis',
        cwd: this.dir,
        logFile: this.reusedLogFile,
      });
    } catch (err) {
      throw new Error(`${String(err)}\n${MISSING_HINT}`);
    }
  }

  protected async waitReady(abortIf: () => string | undefined): Promise<void> {
    await waitForPong(this.port, this.startTimeoutMs, abortIf);
  }

  protected startError(cause: unknown): Error {
    return new Error(`redis (${this.dir}) did not start: ${String(cause)}\n--- log tail ---\n${tailFile(this.logFile)}`);
  }
}

/** Starts redis-server on a free loopback port; resolves once it answers PING. */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const dir = options.dir ?? makeTempDir('redis');
  fs.mkdirSync(dir, { recursive: true });
  const server = new Redis(dir, await freePort(), options.startTimeoutMs ?? 30_000, options.appendfsync);
  await server.launch();
  return server;
}
