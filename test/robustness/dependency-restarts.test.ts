/**
 * The store and Redis restarted under load, and Fedpod recovering without a restart of its own.
 *
 * Fedpod (config/activitypub.json) runs on a private Virtuoso and a private redis-server (AOF fsynced
 * on every write) under a steady load of LDP POSTs and GETs and webhook POSTs. The store is stopped by
 * PID: while it is down, requests that need it answer 503 with a JSON error (not a hang, not a 500,
 * not a crash); once it is back, the server serves again within a bounded time. Then the same for
 * Redis: webhook POSTs answer 503 while it is down (rather than accepting what cannot be made durable)
 * and jobs accepted before the outage run after it. At the end every acknowledged write is there.
 */
import { startFedpod, type FedpodServer } from '../support/fedpod';
import { startRedis, type RedisServer } from '../support/redis';
import { startVirtuoso, type VirtuosoServer } from '../support/virtuoso';
import {
  createContainer, ldpPost, readJsonLd, signup, storeWebhook, webhookDataText, webhookPost, type Operation, type Outcome, type Session,
} from './faults/app';
import { eventually, request } from './faults/http';
import { Ledger, Load, type Ack, type Lane, type Refusal } from './faults/load';
import { printSummary, recordPart } from './faults/summary';

import { join as joinPath } from 'node:path';
import { REPO_ROOT as ROOT_DIR } from '../support/processes';
/** The ActivityPub setup with public append under /notes/, so LDP POSTs can be tested with federation. */
const PUBLIC_APPEND_CONFIG = joinPath(ROOT_DIR, 'test', 'fixtures', 'config', 'activitypub-public-append.json');

/** How long the server may take to serve again once a dependency is back. */
const RECOVERY_MS = 60_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A 503 with a JSON body {error, message}: what a client may retry. */
function isJson503(outcome: Pick<Outcome, 'status' | 'body'>): boolean {
  if (outcome.status !== 503) return false;
  try {
    const body = JSON.parse(outcome.body) as { error?: unknown; message?: unknown };
    return typeof body.error === 'string' && typeof body.message === 'string';
  } catch {
    return false;
  }
}

/** Answers that are neither an acknowledgement nor a JSON 503. */
function badRefusals(refusals: Refusal[]): Refusal[] {
  return refusals.filter((refusal) => !isJson503(refusal));
}

describe('the store and Redis restarted under load', () => {
  let virtuoso: VirtuosoServer | undefined;
  let redis: RedisServer | undefined;
  let server: FedpodServer | undefined;
  let alice: Session;
  let container: string;
  let hook: string;
  let probe: string;
  let lanes: Lane[];
  const ledger = new Ledger();
  const held = { store: false, redis: false };
  let pendingAtRedisStop = 0;

  beforeAll(async() => {
    const deps = await Promise.allSettled([ startVirtuoso(), startRedis({ appendfsync: 'always' }) ]);
    [ virtuoso, redis ] = deps.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [ VirtuosoServer, RedisServer ];
    const failed = deps.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    server = await startFedpod({ config: PUBLIC_APPEND_CONFIG, sparqlEndpoint: virtuoso!.endpoint, redisUrl: redis!.url,
      extraArgs: [ '--retry-base-delay', '200', '--container-page-size', '5000' ] });
    alice = await signup(server.baseUrl, 'alice');
    container = await createContainer(server.baseUrl, 'notes/steady');
    hook = await storeWebhook(server.baseUrl, alice);
    const first = await ldpPost(container)('probe');
    expect(first.status).toBe(201);
    probe = first.ref!;
    const read: Operation = async() => {
      const answer = await readJsonLd(probe);
      return { status: answer.status, body: answer.body };
    };
    lanes = [
      { kind: 'ldp', op: ldpPost(container) },
      { kind: 'read', op: read },
      { kind: 'webhook', op: webhookPost(hook) },
    ];
  });

  afterAll(async() => {
    const outcome = held.store && held.redis ? 'recovered' :
      `NOT recovered (store ${held.store ? 'ok' : 'failed'}, Redis ${held.redis ? 'ok' : 'failed'})`;
    printSummary(recordPart('dependencies', `store and Redis restarts: ${outcome}`));
    await Promise.allSettled([ server?.stop() ]);
    await Promise.allSettled([ virtuoso?.stop(), redis?.stop() ]);
  });

  it('answers 503 with a JSON error while the store is down, and serves again once it is back', async() => {
    const fedpod = server!;
    const before = new Load(lanes, ledger, 'store-before');
    await before.untilAcked(8).finally(() => before.stop());

    await virtuoso!.stop();
    const during = new Load(lanes, ledger, 'store-down');
    try {
      try {
        // Asked directly as well as by the load: reads and writes that need the store.
        const read = await readJsonLd(probe);
        const write = await ldpPost(container)('store-down-direct');
        expect({ status: read.status, json503: isJson503(read) }).toEqual({ status: 503, json503: true });
        expect({ status: write.status, json503: isJson503(write) }).toEqual({ status: 503, json503: true });
        expect(isAlive(fedpod.pid)).toBe(true);
      } finally {
        await virtuoso!.restart();
      }
      // Serves again, without a restart of its own.
      await eventually('an LDP POST is acknowledged again', async() => {
        const outcome = await ldpPost(container)('store-back');
        if (outcome.ref !== undefined) ledger.acks.push({ kind: 'ldp', marker: 'store-back', ref: outcome.ref, phase: 'store-back' });
        return outcome.ref;
      }, RECOVERY_MS, 500);
      await eventually('the probe is readable again', async() => (await readJsonLd(probe)).status === 200 ? true : undefined, RECOVERY_MS);
    } finally {
      await during.stop();
    }
    const after = new Load(lanes, ledger, 'store-after');
    await after.untilAcked(5).finally(() => after.stop());

    expect(isAlive(fedpod.pid)).toBe(true);
    expect(ledger.unanswered).toEqual([]);
    expect(badRefusals(ledger.refusals)).toEqual([]);
    expect(ledger.refusals.filter((refusal) => refusal.phase === 'store-down').length).toBeGreaterThan(0);
    held.store = true;
  }, 150_000);

  it('answers webhook POSTs with 503 while Redis is down, and runs the jobs accepted before it once it is back', async() => {
    const fedpod = server!;
    const before = new Load(lanes, ledger, 'redis-before');
    let stored: string;
    try {
      await before.untilAcked(8);
      // Jobs accepted and not run yet when Redis goes (the load keeps adding them until then).
      stored = await webhookDataText(fedpod.baseUrl, alice, 'alice');
      await redis!.stop();
    } finally {
      await before.stop();
    }
    pendingAtRedisStop = ledger.of('webhook').filter((ack) => !stored.includes(ack.ref)).length;

    const during = new Load(lanes, ledger, 'redis-down');
    try {
      try {
        const refused = await webhookPost(hook)('redis-down-direct');
        expect({ status: refused.status, json503: isJson503(refused) }).toEqual({ status: 503, json503: true });
        // An LDP write is stored (the store is up) or, where it needs Redis (locks), refused with a JSON 503.
        const write = await ldpPost(container)('redis-down-ldp');
        expect({ status: write.status, ok: write.ref !== undefined || isJson503(write) }).toMatchObject({ ok: true });
        if (write.ref !== undefined) ledger.acks.push({ kind: 'ldp', marker: 'redis-down-ldp', ref: write.ref, phase: 'redis-down' });
        expect(isAlive(fedpod.pid)).toBe(true);
      } finally {
        await redis!.restart();
      }
      await eventually('a webhook POST is accepted again', async() => {
        const outcome = await webhookPost(hook)('redis-back');
        if (outcome.ref !== undefined) ledger.acks.push({ kind: 'webhook', marker: 'redis-back', ref: outcome.ref, phase: 'redis-back' });
        return outcome.ref;
      }, RECOVERY_MS, 500);
    } finally {
      await during.stop();
    }

    // Every acknowledged write is there: LDP documents readable, webhook jobs run (at least once).
    const missing: string[] = [];
    for (const ack of ledger.of('ldp')) {
      const answer = await readJsonLd(ack.ref);
      if (answer.status !== 200 || !answer.body.includes(ack.marker)) missing.push(`${ack.ref} (${ack.phase}): ${answer.status}`);
    }
    const jobs = ledger.of('webhook');
    let notRun: Ack[] = jobs;
    await eventually('every acknowledged webhook job has run', async() => {
      const text = await webhookDataText(fedpod.baseUrl, alice, 'alice');
      notRun = jobs.filter((ack) => !text.includes(ack.ref));
      return notRun.length === 0 ? true : undefined;
    }, 90_000, 500).catch(() => undefined);

    expect(isAlive(fedpod.pid)).toBe(true);
    expect(ledger.unanswered).toEqual([]);
    expect(badRefusals(ledger.refusals)).toEqual([]);
    expect(ledger.refusals.filter((refusal) => refusal.phase === 'redis-down' && refusal.kind === 'webhook').length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
    expect(notRun.map((ack) => `${ack.ref} (${ack.phase})`)).toEqual([]);
    // Health of the queue side too: a direct GET of the probe still works after both outages.
    expect((await request(probe, { headers: { accept: 'application/ld+json' } })).status).toBe(200);
    held.redis = true;
    process.stdout.write(`\n[dependency-restarts] ${ledger.acks.length} acknowledged writes; ${pendingAtRedisStop} webhook job(s) pending when Redis stopped\n`);
  }, 150_000);
});
