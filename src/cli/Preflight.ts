import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { FlagSpec } from './FlagSpec';
import { flagProblem } from './FlagSpec';
import { UsageError } from './Console';
import type { Backend } from './Setups';
import { BACKENDS, importedBackend } from './Setups';

/** Every flag's value checked against its declaration; the first problem as a UsageError. */
export function checkFlags(specs: readonly FlagSpec[], argv: Record<string, unknown>): void {
  for (const spec of specs) {
    const problem = flagProblem(spec, argv[spec.name]);
    if (problem) {
      throw new UsageError(problem);
    }
  }
}

/** Resolves when a TCP connection to the URL's host and port opens within `ms`; a UsageError naming the flag otherwise. */
export async function checkReachable(flag: string, value: string, ms = 3000): Promise<void> {
  const url = new URL(value.trim());
  const host = url.hostname.replace(/^\[|\]$/gu, '') || '127.0.0.1';
  const defaults: Record<string, number> = { 'https:': 443, 'http:': 80, 'redis:': 6379, 'rediss:': 6379 };
  const port = Number(url.port || defaults[url.protocol] || 80);
  await new Promise<void>((resolve, reject): void => {
    const socket = connect({ host, port, timeout: ms });
    const refuse = (why: string): void => {
      socket.destroy();
      reject(new UsageError(`--${flag} ${value}: cannot reach ${host}:${port} (${why})`));
    };
    socket.once('connect', (): void => {
      socket.end();
      resolve();
    });
    socket.once('timeout', (): void => refuse(`no answer in ${ms / 1000} s`));
    socket.once('error', (error: NodeJS.ErrnoException): void => refuse(error.code ?? error.message));
  });
}

/** Resolves when `port` on `host` can be listened on now; a UsageError naming the flag otherwise. */
export async function checkPortFree(flag: string, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject): void => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException): void => reject(new UsageError(error.code === 'EADDRINUSE' ?
      `--${flag} ${port}${host ? ` on ${host}` : ''} is in use by another process` :
      `--${flag} ${port}${host ? ` --host ${host}` : ''}: ${error.code ?? error.message}`)));
    probe.listen(port, host || undefined, (): void => {
      probe.close((): void => resolve());
    });
  });
}

/** A config file that exists, or a UsageError naming --config. */
export function checkConfigFile(name: string, file: string): void {
  if (!existsSync(file)) {
    throw new UsageError(`--config ${name}: no such config (activitypub, ldp, ldp-sparql, ldp-wac, or a path to a config file)`);
  }
}

/**
 * The backend a command runs on (config/parts/backend/): the one the config file imports itself,
 * else --backend, else `redis` when --redis-url is given and `local` when not. A UsageError when
 * --backend contradicts the config, when the Redis backend has no --redis-url, and when the local
 * backend is given one (it would be ignored: every node would keep its own queues and locks).
 */
export function chooseBackend(flag: unknown, redisUrl: string, configFile: string): Backend {
  const own = importedBackend(configFile);
  const given = BACKENDS.find((name): boolean => name === flag);
  if (given === undefined && flag !== undefined && flag !== '') {
    throw new UsageError(`--backend must be one of ${BACKENDS.join(', ')} (got ${JSON.stringify(flag)})`);
  }
  if (own && given && given !== own) {
    throw new UsageError(`--backend ${given}: the config imports the ${own} backend (config/parts/backend/${own}.json) itself`);
  }
  const backend = own ?? given ?? (redisUrl.trim() ? 'redis' : 'local');
  const why = own ? `the config imports the ${backend} backend` : `--backend ${backend}`;
  if (backend === 'redis' && !redisUrl.trim()) {
    throw new UsageError(`${why}: give its Redis with --redis-url (REDIS_URL)`);
  }
  if (backend === 'local' && redisUrl.trim()) {
    throw new UsageError(`${why}: queues, locks and change counters stay in this process and its data directory, ` +
      'so --redis-url would be ignored; leave it out (REDIS_URL too), or use --backend redis');
  }
  return backend;
}
