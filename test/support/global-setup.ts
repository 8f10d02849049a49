/**
 * Jest globalSetup of the "integration" project: starts ONE Virtuoso, ONE Apache Jena Fuseki
 * and ONE redis-server for the whole run and exports their addresses (see env.ts).
 * Jest runs it only when at least one integration test file is selected, so
 * `npm test -- test/unit` starts nothing.
 */
import { ENV } from './env';
import { startFuseki, type FusekiServer } from './fuseki';
import { setGlobalServers, type GlobalServers } from './global-state';
import type { ManagedServer } from './managed-process';
import { cleanupStaleRuns, createRunDir, tailFile } from './processes';
import { startRedis, type RedisServer } from './redis';
import { startVirtuoso, type VirtuosoServer } from './virtuoso';

const log = (msg: string): void => {
  process.stderr.write(`[fedpod-test] ${msg}\n`);
};

export default async function globalSetup(): Promise<void> {
  await cleanupStaleRuns();
  const runDir = createRunDir();
  const servers: GlobalServers = { runDir };
  setGlobalServers(servers);
  const began = Date.now();
  process.stderr.write('\n'); // jest's progress line may not have ended
  log(`starting Virtuoso, Fuseki and redis-server (run dir ${runDir})`);
  const [virtuoso, fuseki, redis] = await Promise.allSettled([startVirtuoso(), startFuseki(), startRedis()]);
  if (virtuoso.status === 'fulfilled') servers.virtuoso = virtuoso.value;
  if (fuseki.status === 'fulfilled') servers.fuseki = fuseki.value;
  if (redis.status === 'fulfilled') servers.redis = redis.value;
  if (virtuoso.status === 'rejected' || fuseki.status === 'rejected' || redis.status === 'rejected') {
    // Jest does not run globalTeardown when globalSetup throws.
    await Promise.allSettled([servers.virtuoso?.stop(), servers.fuseki?.stop(), servers.redis?.stop()]);
    const reasons = [virtuoso, fuseki, redis].flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    throw new Error(`test servers did not start:\n${reasons.join('\n')}`);
  }
  exportAddresses(virtuoso.value, fuseki.value, redis.value);
  restartOnCrash('Virtuoso', virtuoso.value);
  restartOnCrash('Fuseki', fuseki.value);
  restartOnCrash('redis-server', redis.value);
  log(
    `Virtuoso ${virtuoso.value.endpoint} (pid ${virtuoso.value.pid}), ` +
      `Fuseki ${fuseki.value.baseUrl} (pid ${fuseki.value.pid}), ` +
      `redis ${redis.value.url} (pid ${redis.value.pid}) ready in ${((Date.now() - began) / 1000).toFixed(1)} s`,
  );
}

/**
 * A shared server that dies mid-run (Virtuoso has been seen to abort inside glibc's allocator under
 * concurrent updates) is said so, with its log, and started again on the same ports and files, so the
 * failures are the tests that were using it then, not every later test of that store.
 */
function restartOnCrash(name: string, server: ManagedServer): void {
  server.onCrash((why) => {
    log(`the shared ${name} (pid ${server.pid}) died while tests ran: ${why}; log ${server.logFile}:\n` +
      `${tailFile(server.logFile)}\nstarting it again on the same ports and files`);
    server.restart().then(
      () => log(`the shared ${name} is back (pid ${server.pid})`),
      (error: unknown) => log(`the shared ${name} could not be started again: ${String(error)}`),
    );
  });
}

function exportAddresses(virtuoso: VirtuosoServer, fuseki: FusekiServer, redis: RedisServer): void {
  process.env[ENV.virtuosoUrl] = virtuoso.baseUrl;
  process.env[ENV.sparqlEndpoint] = virtuoso.endpoint;
  process.env[ENV.virtuosoIsqlPort] = String(virtuoso.isqlPort);
  process.env[ENV.virtuosoPid] = String(virtuoso.pid);
  process.env[ENV.fusekiUrl] = fuseki.baseUrl;
  process.env[ENV.fusekiPid] = String(fuseki.pid);
  process.env[ENV.redisUrl] = redis.url;
  process.env[ENV.redisPid] = String(redis.pid);
}
