#!/usr/bin/env node
'use strict';

// Webhook benchmark: accepted webhook POSTs per second (202 once the job is durable) and time from
// POST to the action having run, for Fedpod with BullMQ on a local redis-server (appendonly yes),
// Fedpod with the journalled local queue, a bare Node server (in-memory, no durability) as the
// baseline, and a bare Node server that adds one BullMQ job per POST to its own redis-server (the
// simplest durable receiver: what durability with BullMQ costs before any Fedpod code).
// Fedpod's action is store-in-container: every payload is written to the triple store,
// so "zero loss" is checked by counting the stored payloads against the 202 answers.
// Each target is measured at two concurrencies, BENCH_CONNECTIONS (10) and BENCH_PEAK_CONNECTIONS
// (100): a server that batches is bound by latency at 10 and by CPU only with more POSTs in flight,
// while bare Node peaks at 10. Capacity is a target's best of the two, and the goal compares
// capacities (docs/benchmarks.md).
//   node bench/webhooks/run.js  (knobs: see bench/README.md; BENCH_TARGETS=bare,bare-bullmq,local,redis)
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { loadConfig, readNumber } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { request, expectStatus, basicAuth } = require('../lib/http');
const { startServer, getLogDir, sleep } = require('../lib/process');
const { startFedpod, makeDataDir } = require('../lib/fedpod');
const { measure } = require('../lib/load');
const { formatTable, formatNumber } = require('../lib/report');
const { log, firstLine, startRun, runMain, saveResults } = require('../lib/runner');

const DRAIN_TIMEOUT_MS = 180_000;
const PROBES = 40;
const GOAL = 0.2;
const TARGETS = [ 'bare', 'bare-bullmq', 'local', 'redis', 'redis-split' ];
const PEAK_CONNECTIONS = { env: 'BENCH_PEAK_CONNECTIONS', fallback: 100, min: 0, max: 500 };

/** The concurrencies each target is measured at: BENCH_CONNECTIONS, then BENCH_PEAK_CONNECTIONS (0: none). */
function concurrencies(config) {
  const peak = Math.round(readNumber(PEAK_CONNECTIONS));
  return peak > 0 && peak !== config.connections ? [ config.connections, peak ] : [ config.connections ];
}

/** A target's best rate over the concurrencies measured (undefined if none). */
function capacity(outcome) {
  return outcome.loads && outcome.loads.length > 0 ? Math.max(...outcome.loads.map((load) => load.reqPerSec)) : undefined;
}

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function startRedis() {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-bench-redis-'));
  const logFd = fs.openSync(path.join(getLogDir(), 'redis.log'), 'a');
  const child = spawn('redis-server', [ '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
    '--appendonly', 'yes', '--save', '' ], { stdio: [ 'ignore', logFd, logFd ] });
  fs.closeSync(logFd);
  const kill = () => child.kill('SIGKILL');
  process.on('exit', kill);
  const until = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > until || child.exitCode !== null) throw new Error('redis-server did not start (is it installed?)');
    await sleep(100);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async() => {
      process.off('exit', kill);
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Counts and POST-to-action times of the payloads stored by store-in-container, from the store itself. */
async function storedPayloads(session, since) {
  const query = `SELECT ?r ?m WHERE { GRAPH ?g { ?g a <urn:fedpod:ns:WebhookPayload> ; <urn:fedpod:ns:received> ?r }
    GRAPH ?mg { ?g <http://purl.org/dc/terms/modified> ?m } }`;
  const res = await expectStatus(`${session.storeUrl}localData/query`, { method: 'POST',
    headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json',
      authorization: basicAuth('admin', 'admin') }, body: query, timeoutMs: 60_000 }, [ 200 ]);
  const rows = JSON.parse(res.body).results.bindings;
  const latencies = [];
  for (const row of rows) {
    const received = Date.parse(row.r.value);
    if (since === undefined || received >= since) {
      latencies.push(Date.parse(row.m.value) - received);
    }
  }
  return { count: rows.length, latencies };
}

async function startBareTarget(id, config, script, extraArgs = [], redis) {
  const port = await freePort();
  const handle = await startServer({ name: id, args: [ path.join(__dirname, script), String(port), ...extraArgs ],
    readyUrl: `http://127.0.0.1:${port}/stats`, timeoutMs: config.startTimeout * 1000 });
  return {
    id, handle, url: `http://127.0.0.1:${port}/hook`,
    processed: async() => JSON.parse((await request(`http://127.0.0.1:${port}/stats`)).body).processed,
    latencies: async() => JSON.parse((await request(`http://127.0.0.1:${port}/stats?latencies`)).body).latencies,
    stop: async() => {
      await handle.stop();
      if (redis) {
        await redis.stop();
      }
    },
  };
}

async function startTarget(id, config) {
  if (id === 'bare-bullmq') {
    const redis = await startRedis();
    return startBareTarget(id, config, 'bare-bullmq-server.js', [ redis.url ], redis);
  }
  if (id === 'bare') {
    return startBareTarget(id, config, 'bare-webhook-server.js');
  }
  const redis = id.startsWith('redis') ? await startRedis() : undefined;
  const port = await freePort();
  const storePort = await freePort();
  const redisArgs = redis ? [ '--redis-url', redis.url ] : [];
  const handles = [];
  let web;
  try {
    if (id === 'redis-split') {
      // Two nodes of one deployment (same Redis, data directory and base URL): a worker node that owns
      // the embedded store and runs the jobs at idle CPU priority, and a web node without queue
      // workers that takes the load (see docs/operations.md, "Web and worker nodes").
      const webPort = await freePort();
      const dataDir = makeDataDir('fedpod-split');
      const baseUrl = `http://localhost:${webPort}/`;
      handles.push(await startFedpod({ name: 'fedpod-redis-worker', config: 'activitypub', port, storePort, dataDir, baseUrl,
        timeoutMs: config.startTimeout * 1000, extraArgs: redisArgs, prefix: [ 'chrt', '--idle', '0' ] }));
      web = await startFedpod({ name: 'fedpod-redis-web', config: 'activitypub', port: webPort, storePort: await freePort(), dataDir,
        baseUrl, timeoutMs: config.startTimeout * 1000,
        extraArgs: [ ...redisArgs, '--sparql-endpoint', `http://127.0.0.1:${storePort}/`, '--no-queue-workers' ] });
    } else {
      web = await startFedpod({ name: `fedpod-${id}`, config: 'activitypub', port, storePort,
        timeoutMs: config.startTimeout * 1000, extraArgs: redisArgs });
    }
    handles.push(web);
  } catch (error) {
    await Promise.all(handles.map((handle) => handle.stop()));
    if (redis) await redis.stop();
    throw error;
  }
  const base = web.baseUrl;
  const signup = await expectStatus(`${base}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', email: 'bench@example.com', password: 'correct horse battery' }) }, [ 201 ]);
  const { token } = JSON.parse(signup.body);
  const generated = await expectStatus(`${base}webhooks`, { method: 'POST', headers: { 'content-type': 'application/json',
    authorization: `Bearer ${token}` }, body: JSON.stringify({ action: 'store-in-container' }) }, [ 201 ]);
  const url = generated.headers.location;
  const session = { storeUrl: `http://127.0.0.1:${storePort}/` };
  return {
    id, url, redis,
    processed: async() => (await storedPayloads(session)).count,
    latencies: async(since) => (await storedPayloads(session, since)).latencies,
    stop: async() => {
      // The web node first: the worker node owns the store.
      for (const handle of handles.reverse()) await handle.stop();
      if (redis) {
        await redis.stop();
      }
    },
  };
}

async function waitForDrain(target, expected) {
  const until = Date.now() + DRAIN_TIMEOUT_MS;
  let processed = 0;
  const started = Date.now();
  while (Date.now() < until) {
    processed = await target.processed();
    if (processed >= expected) return { processed, drainMs: Date.now() - started };
    await sleep(500);
  }
  return { processed, drainMs: Date.now() - started, timedOut: true };
}

async function benchmark(id, config) {
  const outcome = { id };
  let target;
  try {
    log(`\n== ${id}`);
    target = await startTarget(id, config);
    let counter = 0;
    const run = Date.now().toString(36);
    const spec = { url: target.url, method: 'POST', headers: { 'content-type': 'application/json' },
      makeBody: () => JSON.stringify({ event: 'push', marker: `${run}-${counter++}`, payload: { ref: 'refs/heads/main', commits: 3 } }) };
    let accepted = 0;
    if (config.warmup > 0) {
      const warm = await measure(spec, { ...config, duration: config.warmup, warmup: 0 });
      accepted += warm.ok2xx + 1;
    }
    outcome.loads = [];
    for (const connections of concurrencies(config)) {
      const summary = await measure(spec, { ...config, connections, warmup: 0 });
      accepted += summary.ok2xx + 1;
      outcome.loads.push({ connections, ...summary });
      log(`  ${connections} connections: accepted ${formatNumber(summary.reqPerSec)} POST/s (p50 ${summary.latencyP50Ms} ms,` +
        ` p99 ${summary.latencyP99Ms} ms)${summary.flagged ? `  INVALID: ${summary.problems.join('; ')}` : ''}`);
    }
    const drained = await waitForDrain(target, accepted);
    outcome.accepted = accepted;
    outcome.processed = drained.processed;
    outcome.drainMs = drained.drainMs;
    outcome.lost = Math.max(0, accepted - drained.processed);
    const underLoad = await target.latencies();
    outcome.actionUnderLoad = { p50: percentile(underLoad, 50), p99: percentile(underLoad, 99) };
    // Idle: one POST at a time.
    const since = Date.now();
    for (let index = 0; index < PROBES; index += 1) {
      await expectStatus(target.url, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ probe: index }) }, [ 202 ]);
      await sleep(25);
    }
    await waitForDrain(target, drained.processed + PROBES);
    const idle = id.startsWith('bare') ? (await target.latencies()).slice(-PROBES) : await target.latencies(since - 5);
    outcome.actionIdle = { p50: percentile(idle, 50), p99: percentile(idle, 99) };
    log(`  ${accepted} accepted, ${drained.processed} ran (${outcome.lost} lost), queue drained ${drained.drainMs} ms after the load;` +
      ` POST to action: idle p50 ${formatNumber(outcome.actionIdle.p50)} ms p99 ${formatNumber(outcome.actionIdle.p99)} ms,` +
      ` under load p50 ${formatNumber(outcome.actionUnderLoad.p50)} ms p99 ${formatNumber(outcome.actionUnderLoad.p99)} ms`);
  } catch (error) {
    outcome.unavailable = firstLine(error);
    log(`  not available: ${outcome.unavailable}`);
  } finally {
    if (target) await target.stop();
  }
  return outcome;
}

async function main() {
  const config = loadConfig();
  // Unknown BENCH_TARGETS ids are ignored here, so no selectTargets().
  const { machineAtStart } = startRun(config, { name: 'bench/webhooks' });
  const wanted = config.targets || TARGETS;
  const outcomes = {};
  for (const id of TARGETS.filter((name) => wanted.includes(name))) {
    outcomes[id] = await benchmark(id, config);
  }
  const levels = concurrencies(config);
  const bare = outcomes.bare ? capacity(outcomes.bare) : undefined;
  const ofBare = (rate) => (bare ? `${formatNumber(100 * rate / bare)}%` : '-');
  const measured = Object.values(outcomes).filter((o) => !o.unavailable);
  const rateHeader = [[ 'target', ...levels.flatMap((c) => [ `POST/s c=${c}`, `p99 ms c=${c}` ]), 'capacity', 'vs bare' ]];
  const rateRows = measured.map((o) => [ o.id,
    ...o.loads.flatMap((load) => [ formatNumber(load.reqPerSec) + (load.flagged ? ' !' : ''), String(load.latencyP99Ms) ]),
    formatNumber(capacity(o)), ofBare(capacity(o)) ]);
  const actionHeader = [[ 'target', 'accepted', 'ran', 'lost', 'action p50 idle', 'p99 idle', 'p50 load', 'p99 load' ]];
  const actionRows = measured.map((o) => [ o.id, String(o.accepted), String(o.processed), String(o.lost),
    formatNumber(o.actionIdle.p50), formatNumber(o.actionIdle.p99), formatNumber(o.actionUnderLoad.p50), formatNumber(o.actionUnderLoad.p99) ]);
  log(`\nWebhook benchmark: ${levels.join(' and ')} connections, ${config.duration} s each (after ${config.warmup} s warm-up);` +
    ` capacity = best of those; "vs bare" = capacity / bare's capacity\n`);
  log(formatTable(rateHeader, rateRows));
  log('');
  log(formatTable(actionHeader, actionRows));
  for (const o of Object.values(outcomes).filter((outcome) => outcome.unavailable)) {
    log(`${o.id}: n/a (${o.unavailable})`);
  }
  // The goal, for each Redis deployment measured: one node, and a web node with a worker node.
  const goals = [ [ 'redis', 'one node' ], [ 'redis-split', 'web node + worker node' ] ].filter(([ id ]) => outcomes[id]).map(([ id, label ]) => {
    const outcome = outcomes[id];
    const rate = capacity(outcome);
    const ok = rate !== undefined && bare !== undefined;
    const met = ok && !outcome.loads.some((load) => load.flagged) && outcome.lost === 0 && rate >= GOAL * bare;
    log(`Goal: Redis (${label}) capacity >= ${GOAL * 100}% of bare Node's with zero loss: ${ok ?
      `${ofBare(rate)}, ${outcome.lost} lost: ${met ? 'MET' : 'NOT MET'}` : 'not measured'}`);
    return { id, met };
  });
  const met = goals.some((goal) => goal.met);
  saveResults('webhooks', { settings: config, machineAtStart, outcomes, goal: { ratio: GOAL, met, byTarget: goals } });
  return process.env.BENCH_STRICT === '1' && !met ? 1 : 0;
}

runMain('bench/webhooks', main);
