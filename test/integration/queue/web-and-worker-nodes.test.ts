/**
 * A node started with --no-queue-workers only adds jobs: what it accepts waits in Redis until a node
 * with workers runs it. Both nodes share one store (the run's Virtuoso), one Redis database, one data
 * directory and one public base URL, as a web node and a worker node of one deployment do.
 */
import { signup, storeWebhook } from '../../robustness/faults/app';
import { request } from '../../robustness/faults/http';
import { claimRedisDb, sharedServers } from '../../support/env';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { makeTempDir } from '../../support/processes';
import { sparqlSelect } from '../../support/sparql';

const LDP_CONTAINS = 'http://www.w3.org/ns/ldp#contains';

describe('a web node without queue workers and a worker node', () => {
  let web: FedpodServer | undefined;
  let worker: FedpodServer | undefined;
  let base: string;
  let endpoint: string;
  let redisUrl: string;
  let dataDir: string;
  const run = Date.now().toString(36);

  async function storedMembers(container: string): Promise<number> {
    const [ row ] = await sparqlSelect(endpoint, `SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { GRAPH <${container}> { <${container}> <${LDP_CONTAINS}> ?m } }`);
    return Number(row.n.value);
  }

  beforeAll(async() => {
    endpoint = sharedServers().sparqlEndpoint;
    redisUrl = claimRedisDb();
    dataDir = makeTempDir('fedpod-web-worker');
    web = await startFedpod({ config: 'activitypub', sparqlEndpoint: endpoint, redisUrl, dataDir, extraArgs: [ '--no-queue-workers' ] });
    base = web.baseUrl;
  }, 180_000);

  afterAll(async() => {
    await Promise.all([ web?.stop(), worker?.stop() ]);
  });

  it('accepts webhook POSTs that only a node with workers runs', async() => {
    // Requests to the base URL reach the web node: it is started on it.
    const session = await signup(base, `web${run}`);
    const hook = await storeWebhook(base, session);

    const total = 20;
    const answers = await Promise.all(Array.from({ length: total }, async(_unused, index) => request(hook, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ index }) })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: total }, () => 202));
    // Ready without workers: it serves what it is for.
    expect((await request(`${base}readyz`)).status).toBe(200);

    // Nothing runs them yet. The web node has had time to run a burst of 20 many times over (the
    // worker node below does it in well under a second once started).
    const container = `${base}webhook-data/web${run}/`;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await storedMembers(container)).toBe(0);

    worker = await startFedpod({ config: 'activitypub', sparqlEndpoint: endpoint, redisUrl, dataDir, baseUrl: base });
    const stored = await eventually(async() => {
      const count = await storedMembers(container);
      return count >= total ? count : undefined;
    }, 120_000, 250);
    expect(stored).toBe(total);
  }, 300_000);
});
