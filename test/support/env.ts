/**
 * The shared servers started once per run by global-setup.ts, as seen from a
 * test file. Only available in the "integration" jest project (every test
 * file under test/ except test/unit/).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REDIS_DATABASES } from './redis';

/** Environment variables exported by global-setup.ts. */
export const ENV = {
  /** Per-run temp dir: logs/, pids/, server data dirs. */
  runDir: 'FEDPOD_TEST_RUN_DIR',
  /** Virtuoso base URL, http://127.0.0.1:PORT */
  virtuosoUrl: 'FEDPOD_TEST_VIRTUOSO_URL',
  /** Virtuoso SPARQL endpoint for queries AND updates, http://127.0.0.1:PORT/sparql */
  sparqlEndpoint: 'FEDPOD_TEST_SPARQL_ENDPOINT',
  /** Virtuoso SQL (isql) port, for virtuosoSql() */
  virtuosoIsqlPort: 'FEDPOD_TEST_VIRTUOSO_ISQL_PORT',
  virtuosoPid: 'FEDPOD_TEST_VIRTUOSO_PID',
  /** Apache Jena Fuseki base URL (datasets at /NAME/query, /NAME/update; admin/admin), http://127.0.0.1:PORT */
  fusekiUrl: 'FEDPOD_TEST_FUSEKI_URL',
  fusekiPid: 'FEDPOD_TEST_FUSEKI_PID',
  /** redis://127.0.0.1:PORT (database 0; prefer claimRedisDb()) */
  redisUrl: 'FEDPOD_TEST_REDIS_URL',
  redisPid: 'FEDPOD_TEST_REDIS_PID',
} as const;

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(
      `${name} is not set: the shared test servers are started by test/support/global-setup.ts ` +
        'for the "integration" jest project only (test files outside test/unit/). Run through `npm test`.',
    );
  }
  return value;
}

export interface SharedServers {
  runDir: string;
  virtuosoUrl: string;
  sparqlEndpoint: string;
  virtuosoIsqlPort: number;
  virtuosoPid: number;
  fusekiUrl: string;
  fusekiPid: number;
  redisUrl: string;
  redisPid: number;
}

export function sharedServers(): SharedServers {
  return {
    runDir: required(ENV.runDir),
    virtuosoUrl: required(ENV.virtuosoUrl),
    sparqlEndpoint: required(ENV.sparqlEndpoint),
    virtuosoIsqlPort: Number(required(ENV.virtuosoIsqlPort)),
    virtuosoPid: Number(required(ENV.virtuosoPid)),
    fusekiUrl: required(ENV.fusekiUrl),
    fusekiPid: Number(required(ENV.fusekiPid)),
    redisUrl: required(ENV.redisUrl),
    redisPid: Number(required(ENV.redisPid)),
  };
}

/**
 * A redis URL with a logical database (1..1023) no other test of this run
 * has claimed, so concurrent tests' queues and keys never meet. Claims are
 * files created exclusively in the run dir, so they hold across workers.
 */
export function claimRedisDb(): string {
  const { runDir, redisUrl } = sharedServers();
  const claims = path.join(runDir, 'redis-db-claims');
  fs.mkdirSync(claims, { recursive: true });
  for (let db = 1; db < REDIS_DATABASES; db++) {
    try {
      fs.writeFileSync(path.join(claims, String(db)), String(process.pid), { flag: 'wx' });
      return `${redisUrl}/${db}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error(`all ${REDIS_DATABASES - 1} redis databases of this run are claimed`);
}
