/**
 * Readiness while the embedded store loads: from the moment `fedpod start` has checked its flags it
 * holds its port, and until the server itself answers, every answer (to /readyz, /healthz and
 * anything else) is a 503 `{ error, message }` with Retry-After. The store is given a large snapshot
 * so that loading takes a while, but nothing here needs to catch that phase: the assertions hold for
 * every answer seen, however many or few fall before `ready`.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { freePort } from '../support/ports';
import { killByPid, makeTempDir, REPO_ROOT, spawnLogged, type SpawnedProcess } from '../support/processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
const DATASET = 'localData';
const GENERATED_QUADS = 300_000;

interface Answer {
  path: string;
  status: number;
  retryAfter: string | undefined;
  body: Record<string, unknown> | undefined;
}

function get(url: string, authorization?: string): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: 10_000, headers: authorization ? { authorization } : {} }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => {
        let body: Record<string, unknown> | undefined;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = undefined;
        }
        resolve({ path: new URL(url).pathname, status: response.statusCode!, retryAfter: response.headers['retry-after'] as string | undefined, body });
      });
    });
    request.on('timeout', () => request.destroy());
    // Refused (not listening yet): no answer.
    request.on('error', () => resolve(undefined));
  });
}

/** A data directory whose one durable dataset starts from a snapshot of `quads` quads in named graphs. */
function dataDirWithSnapshot(quads: number): string {
  const dataDir = makeTempDir('fedpod-loading-');
  const store = path.join(dataDir, 'store');
  const dataset = path.join(store, 'datasets', DATASET);
  fs.mkdirSync(dataset, { recursive: true });
  fs.writeFileSync(path.join(store, 'datasets.json'), JSON.stringify({ version: 1, datasets: [{ name: DATASET, type: 'tdb2' }]}));
  const lines: string[] = [];
  for (let index = 0; index < quads; index++) {
    lines.push(`<urn:fedpod:test:s${index % 1000}> <urn:fedpod:test:p> "generated value ${index}" <urn:fedpod:test:g${index % 100}> .\n`);
  }
  fs.writeFileSync(path.join(dataset, 'snapshot-000000000001.nq'), lines.join(''));
  return dataDir;
}

describe('start-up while the embedded store loads a large snapshot', () => {
  let proc: SpawnedProcess | undefined;

  afterAll(async() => {
    if (proc) {
      await killByPid(proc.pid);
    }
  });

  it('answers every request 503 with Retry-After until the server answers itself, then serves the loaded data', async() => {
    const [ port, storePort ] = [ await freePort(), await freePort() ];
    const dataDir = dataDirWithSnapshot(GENERATED_QUADS);
    proc = await spawnLogged(process.execPath, [ BIN, 'start', '--config', 'ldp', '--port', String(port),
      '--data-dir', dataDir, '--store-port', String(storePort) ], { name: 'fedpod-loading' });
    const exited = proc.exited;
    let gone = false;
    void exited.then(() => {
      gone = true;
    });

    // Poll until the server's own /readyz answers (it names its checks); the placeholder never does.
    const early: Answer[] = [];
    const paths = [ '/readyz', '/healthz', '/notes/' ];
    let serverAnswer: Answer | undefined;
    const deadline = Date.now() + 110_000;
    for (let round = 0; serverAnswer === undefined; round++) {
      expect(gone).toBe(false);
      expect(Date.now()).toBeLessThan(deadline);
      const answer = await get(`http://127.0.0.1:${port}${paths[round % paths.length]}`);
      if (answer?.path === '/readyz' && answer.body?.checks !== undefined) {
        serverAnswer = answer;
      } else if (answer?.body?.error === 'not_ready' && answer.body.checks === undefined) {
        early.push(answer);
      } else if (answer !== undefined) {
        // An answer from the server itself to another path: it is serving, so that ends the phase too.
        serverAnswer = answer;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    for (const answer of early) {
      expect(answer).toEqual({
        path: answer.path,
        status: 503,
        retryAfter: '1',
        body: { error: 'not_ready', message: expect.stringMatching(/^(starting|store loading)$/u) },
      });
    }
    // Once the server answers, the store is loaded: everything in the snapshot is there.
    const count = await get(`http://127.0.0.1:${storePort}/${DATASET}/query?query=${encodeURIComponent(
      'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s <urn:fedpod:test:p> ?o } }')}`, `Basic ${Buffer.from('admin:admin').toString('base64')}`);
    expect(count?.status).toBe(200);
    expect(JSON.stringify(count?.body)).toContain(`"value":"${GENERATED_QUADS}"`);
    const notes = await get(`http://127.0.0.1:${port}/notes/`);
    expect(notes?.status).toBe(200);
    const log = fs.readFileSync(proc.logFile, 'utf8');
    expect(log).toMatch(new RegExp(`Dataset ${DATASET}: ${GENERATED_QUADS} quads; snapshot loaded in \\d+ ms`, 'u'));
  }, 120_000);
});
