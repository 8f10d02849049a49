/**
 * kill -9 under load, five times in a row, and nothing acknowledged is lost. Fedpod (config/activitypub.json)
 * takes a mixed load -- LDP POSTs of JSON-LD to a container, outbox posts of a signed-up user, webhook POSTs
 * to a store-in-container webhook -- and is killed with SIGKILL while requests are in flight, restarted on
 * the same data (and store, and Redis), loaded and killed again. Afterwards every LDP POST answered 201 is
 * readable at its Location, every outbox post answered 201 has its activity stored, and every webhook POST
 * answered 202 has run (its payload stored), eventually.
 *
 * Two setups: the default (embedded store, journalled local queue), and Virtuoso with BullMQ on a private
 * redis-server whose AOF is fsynced on every write (appendfsync always), which is what makes an
 * acknowledged job durable there.
 */
import { sharedServers } from '../support/env';
import { startFedpod, type FedpodServer } from '../support/fedpod';
import { startRedis, type RedisServer } from '../support/redis';
import {
  createContainer, ldpPost, outboxPost, readJsonLd, signup, storeWebhook, webhookDataText, webhookPost, type Session,
} from './faults/app';
import { bullmqJobState } from './faults/bullmq-state';
import { eventually } from './faults/http';
import { Ledger, Load, type Ack, type Lane } from './faults/load';
import { printSummary, recordPart } from './faults/summary';

import { join as joinPath } from 'node:path';
import { REPO_ROOT as ROOT_DIR } from '../support/processes';
/** The ActivityPub setup with public append under /notes/, so LDP POSTs can be tested with federation. */
const PUBLIC_APPEND_CONFIG = joinPath(ROOT_DIR, 'test', 'fixtures', 'config', 'activitypub-public-append.json');

const KILLS = 5;
/** Writes acknowledged in a round before the kill: enough that every kind is in flight, few enough for 2 cores. */
const ACKS_PER_ROUND = 12;
/** Of them, at least this many of each kind: the outbox lane is slower than the others and was outrun. */
const ACKS_PER_KIND = 2;

/**
 * One listing page holds every stored webhook payload; a job whose run failed (e.g. cut short by the
 * kill) is retried within seconds rather than after the production 30 s, 60 s, ...
 */
const EXTRA_ARGS = [ '--container-page-size', '5000', '--retry-base-delay', '1000' ];
/** A job running at a kill runs again within 10 s (its claim lapses, a stalled check finds it) rather than within a minute. */
const BULLMQ_ARGS = [ '--job-lock-duration', '5000' ];

interface Setup {
  name: string;
  start: () => Promise<{ server: FedpodServer; redis?: RedisServer }>;
}

const setups: Setup[] = [
  {
    name: 'the embedded store and the local journal queue',
    start: async() => ({ server: await startFedpod({ config: PUBLIC_APPEND_CONFIG, extraArgs: EXTRA_ARGS }) }),
  },
  {
    name: 'Virtuoso and BullMQ on Redis (appendfsync always)',
    start: async() => {
      const redis = await startRedis({ appendfsync: 'always' });
      try {
        const server = await startFedpod({ config: PUBLIC_APPEND_CONFIG, sparqlEndpoint: sharedServers().sparqlEndpoint, redisUrl: redis.url,
          extraArgs: [ ...EXTRA_ARGS, ...BULLMQ_ARGS ] });
        return { server, redis };
      } catch (err) {
        await redis.stop();
        throw err;
      }
    },
  },
];

/** Acknowledged writes that are not there (LDP and outbox: read back now; webhooks: not run yet). */
async function missingReads(acks: Ack[]): Promise<string[]> {
  const missing: string[] = [];
  for (const ack of acks) {
    const answer = await readJsonLd(ack.ref).catch((err: unknown) => ({ status: String(err), body: '' }));
    if (answer.status !== 200 || !answer.body.includes(ack.marker)) missing.push(`${ack.kind} ${ack.ref} (${ack.phase}): ${answer.status}`);
  }
  return missing;
}

interface Run {
  setup: Setup;
  server?: FedpodServer;
  redis?: RedisServer;
  ledger: Ledger;
  alice?: Session;
  lanes: Lane[];
  inFlightAtKill: number[];
}

async function prepare(run: Run): Promise<void> {
  const started = await run.setup.start();
  run.server = started.server;
  run.redis = started.redis;
  const { baseUrl } = started.server;
  run.alice = await signup(baseUrl, 'alice');
  const container = await createContainer(baseUrl, 'notes/load');
  const hook = await storeWebhook(baseUrl, run.alice);
  run.lanes = [
    { kind: 'ldp', op: ldpPost(container), concurrency: 2 },
    { kind: 'outbox', op: outboxPost(run.alice) },
    { kind: 'webhook', op: webhookPost(hook), concurrency: 2 },
  ];
}

/** Load, kill -9 with requests in flight, restart on the same data; KILLS times. */
async function killRepeatedly(run: Run): Promise<void> {
  const server = run.server!;
  for (let round = 1; round <= KILLS; round++) {
    const load = new Load(run.lanes, run.ledger, `round${round}`);
    try {
      await load.untilAcked(ACKS_PER_ROUND, { eachKind: ACKS_PER_KIND });
    } catch (err) {
      throw new Error(`${run.setup.name}, round ${round}: ${String(err)} (refusals: ${JSON.stringify(run.ledger.refusals.slice(-3))}; log ${server.logFile})`);
    } finally {
      // The lanes never pause while the server answers, so requests are in flight now.
      run.inFlightAtKill.push(load.inFlight);
      await server.kill9();
      await load.stop();
      // Up again even when the round failed, so that what was acknowledged can still be checked.
      await server.restart();
    }
  }
}

interface Verdict { missing: string[]; notRun: string[] }

/** What was acknowledged and is not there: LDP and outbox read back; webhook jobs run (eventually). */
async function verify(run: Run): Promise<Verdict> {
  const server = run.server!;
  const missing = await missingReads([ ...run.ledger.of('ldp'), ...run.ledger.of('outbox') ]);
  const jobs = run.ledger.of('webhook');
  let notRun: Ack[] = jobs;
  // A job running at the kill is re-run once its claim lapses (BullMQ: lock expiry and stalled check, BULLMQ_ARGS).
  await eventually('every acknowledged webhook job has run', async() => {
    const stored = await webhookDataText(server.baseUrl, run.alice!, 'alice');
    notRun = jobs.filter((ack) => !stored.includes(ack.ref) || !stored.includes(ack.marker));
    return notRun.length === 0 ? true : undefined;
  }, 120_000, 500).catch(() => undefined);
  const described: string[] = [];
  for (const ack of notRun) {
    // Where the job stands, to tell a lost job from a slow one.
    const state = run.redis === undefined ? '' : ` -- BullMQ: ${await bullmqJobState(run.redis.port, ack.ref)}`;
    described.push(`${ack.ref} (${ack.phase})${state}`);
  }
  return { missing, notRun: described };
}

// Both setups run at once: most of the time goes to restarts, and to BullMQ's lock expiry, which overlap.
describe(`kill -9 under load, ${KILLS} times in a row`, () => {
  const runs: Run[] = setups.map((setup) => ({ setup, ledger: new Ledger(), lanes: [], inFlightAtKill: [] }));

  beforeAll(async() => {
    const prepared = await Promise.allSettled(runs.map(prepare));
    const failed = prepared.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  });

  afterAll(async() => {
    await Promise.allSettled(runs.map((run) => run.server?.stop()));
    await Promise.allSettled(runs.map((run) => run.redis?.stop()));
  });

  it('keeps every acknowledged LDP POST, outbox post and webhook job, in both setups', async() => {
    const killed = await Promise.allSettled(runs.map(killRepeatedly));
    const verdicts = await Promise.all(runs.map(verify));
    const lost = verdicts.reduce((sum, verdict) => sum + verdict.missing.length + verdict.notRun.length, 0);
    const acknowledged = runs.reduce((sum, run) => sum + run.ledger.acks.length, 0);
    const kills = runs.reduce((sum, run) => sum + run.inFlightAtKill.length, 0);
    printSummary(recordPart('kills', '', { kills, acknowledged, lost }));

    for (const result of killed) if (result.status === 'rejected') throw result.reason;
    runs.forEach((run, i) => {
      const name = run.setup.name;
      // While the server was up, every answer was an acknowledgement (no 500 on the way to a kill).
      expect({ name, refusals: run.ledger.refusals }).toEqual({ name, refusals: [] });
      expect({ name, inFlightAtKill: run.inFlightAtKill.every((n) => n > 0) }).toEqual({ name, inFlightAtKill: true });
      for (const kind of [ 'ldp', 'outbox', 'webhook' ] as const) expect(run.ledger.of(kind).length).toBeGreaterThan(0);
      expect({ name, ...verdicts[i] }).toEqual({ name, missing: [], notRun: [] });
    });
  }, 280_000);
});
