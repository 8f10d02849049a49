#!/usr/bin/env node
'use strict';

// Federation benchmark: Fedpod against a Fedify app, both delivering to and
// receiving from the bench's own HTTPS "sink" servers on loopback.
//   1. fan-out of one Note to N followers (default 1,000): (a) on H hosts (default 10)
//      with shared inboxes, (b) with N distinct inboxes; time from the outbox POST's
//      answer until every inbox has accepted (2xx) its copy;
//   2. the same fan-out by Fedify (followers in its KV, ctx.sendActivity(..., 'followers'));
//      for both, the sending process's CPU time (utime + stime, from /proc) per delivery,
//      less its idle rate measured just before;
//   3. inbox ingest: precomputed signed Creates POSTed by a bounded load generator;
//   4. the ceiling: RSA-2048 signs/s and verifies/s on this machine.
//   node bench/federation/run.js          (knobs: see bench/README.md)

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadConfig, readList } = require('../lib/config');
const { sleep } = require('../lib/process');
const { formatTable, formatNumber, formatRatio } = require('../lib/report');
const { makeDataDir } = require('../lib/fedpod');
const {
  log, firstLine, startRun, runMain, strictExitCode, saveResults, warnIfBusy, withTargetSession, skipOnError,
} = require('../lib/runner');
const { ceiling } = require('./signatures');
const { makeTls, destroyAgents, httpsRequest } = require('./lib/tls');
const { signPost } = require('./lib/cavage');
const { startSinks } = require('./lib/sinks');
const { buildRequests, runLoad } = require('./lib/ingest');
const { TARGETS, FEDIFY_VERSION } = require('./lib/targets');
const { loadProfile, summarize, formatEntries } = require('./lib/profile-summary');
const { cpuSample, cpuDelta, idleBaseline, nodeProcess } = require('./lib/cpu');

const FLAG = '!';
const DEFAULT_MAX_SECONDS = 600;
const PARTS = ['ceiling', 'fanout', 'ingest'];

// Knobs of this benchmark, bounded like bench/lib/config.js's.
const LIMITS = {
  followers: { env: 'BENCH_FED_FOLLOWERS', fallback: 1000, min: 10, max: 5000 },
  hosts: { env: 'BENCH_FED_HOSTS', fallback: 10, min: 1, max: 50 },
  sinkProcesses: { env: 'BENCH_FED_SINK_PROCESSES', fallback: 2, min: 1, max: 10 },
  sinkVerify: { env: 'BENCH_FED_SINK_VERIFY', fallback: 1, min: 0, max: 1 },
  sinkWarmup: { env: 'BENCH_FED_SINK_WARMUP', fallback: 2000, min: 0, max: 20000 },
  posts: { env: 'BENCH_FED_POSTS', fallback: 3, min: 1, max: 5 },
  deliveryTimeout: { env: 'BENCH_FED_DELIVERY_TIMEOUT', fallback: 60, min: 5, max: 300 },
  ingest: { env: 'BENCH_FED_INGEST', fallback: 2000, min: 50, max: 20000 },
  ingestWarmup: { env: 'BENCH_FED_INGEST_WARMUP', fallback: 2000, min: 1, max: 20000 },
  ingestConnections: { env: 'BENCH_FED_INGEST_CONNECTIONS', fallback: 32, min: 1, max: 200 },
  ingestSeconds: { env: 'BENCH_FED_INGEST_SECONDS', fallback: 30, min: 1, max: 120 },
  drainSeconds: { env: 'BENCH_FED_DRAIN_SECONDS', fallback: 60, min: 1, max: 300 },
  ceilingSeconds: { env: 'BENCH_FED_CEILING_SECONDS', fallback: 1, min: 0.2, max: 10 },
};

// Every goal is a ratio to Fedify measured in the same run (or to Fedpod's own acceptance rate):
// absolute rates move by 15% between runs on a shared 2-core machine, ratios much less.
const GOALS = {
  // A post to N distinct inboxes, from the POST sent until the last inbox accepted its copy: Fedpod's
  // wall-clock over Fedify's, at most, on every post (the first after a start included).
  fanOutVsFedify: 0.25,
  // Fedpod's sender CPU per delivery over Fedify's, at most (distinct inboxes).
  cpuVsFedify: 0.25,
  // Processed per second while the load lasts over accepted per second, at least (the queue flat).
  ingestKeepsUp: 0.9,
  // Fedpod's processed rate over Fedify's, at least.
  ingestVsFedify: 6,
};

// The idle baseline before each fan-out: a window as long as the target's previous fan-out of
// the same shape (the first: firstMs), within [minMs, maxMs], after at most settleMs of waiting
// for the process to go quiet.
const CPU_IDLE = { firstMs: 1000, minMs: 1000, maxMs: 5000, settleMs: 5000 };

function loadFederationConfig() {
  if (!process.env.BENCH_MAX_SECONDS) {
    process.env.BENCH_MAX_SECONDS = String(DEFAULT_MAX_SECONDS);
  }
  const config = loadConfig();
  for (const [key, { env, fallback, min, max }] of Object.entries(LIMITS)) {
    const raw = process.env[env];
    const value = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isFinite(value)) {
      throw new Error(`${env} must be a number, got "${raw}"`);
    }
    config[key] = Math.min(max, Math.max(min, value));
    if (key !== 'ceilingSeconds') {
      config[key] = Math.round(config[key]);
    }
  }
  config.sinkVerify = config.sinkVerify === 1;
  config.parts = readList('BENCH_FED_PARTS') || PARTS;
  const unknown = config.parts.filter((part) => !PARTS.includes(part));
  if (unknown.length > 0) {
    throw new Error(`unknown BENCH_FED_PARTS ${unknown.join(',')}; known: ${PARTS.join(',')}`);
  }
  return config;
}

const SHAPES = [
  { id: 's', label: (config) => `(a) ${config.hosts} shared inboxes`, inboxes: (config) => config.hosts },
  { id: 'd', label: (config) => `(b) ${config.followers} inboxes`, inboxes: (config) => config.followers },
];

const ordinal = (n) => ['1st', '2nd', '3rd', '4th', '5th'][n - 1];
// CLOCK_MONOTONIC in microseconds: the clock of CPU profiles, in every process.
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/** Follower actors on the sinks: i-th on host i mod H; shape 's' has shared inboxes, 'd' not. */
function followersOf(shape, sinks, count) {
  return Array.from({ length: count }, (_, i) => {
    const { origin } = sinks.hosts[i % sinks.hosts.length];
    const id = `${origin}/${shape}/users/u${i}`;
    return { id, inbox: `${id}/inbox`, sharedInbox: shape === 's' ? `${origin}/inbox` : null };
  });
}

function rejectedSince(before, after) {
  const delta = {};
  for (const [reason, count] of Object.entries(after.rejected)) {
    const added = count - (before.rejected[reason] || 0);
    if (added > 0) {
      delta[reason] = added;
    }
  }
  return delta;
}

// ---------- 1 + 2: fan-out ----------

const TAIL_MS = 300;

/**
 * The sender's CPU for one fan-out: utime + stime of its process (all threads) from just before
 * the publishing request until every inbox had accepted its copy, less what the process uses
 * when idle (its rate over the quiet window before, times the window's length), per accepted
 * inbox POST. `tail`: the same for the TAIL_MS after, work that outlived the last delivery.
 */
function senderCpu(pid, samples, idle, deliveries) {
  const used = cpuDelta(samples.start, samples.end);
  const tail = cpuDelta(samples.end, samples.tail);
  const idleMs = idle.msPerSec * used.wallMs / 1000;
  const netMs = used.ms - idleMs;
  return {
    pid,
    usedMs: used.ms,
    wallMs: used.wallMs,
    precise: used.precise,
    ticksMs: used.ticksMs,
    mainThreadMs: used.mainThreadMs,
    busiestThreads: used.busiestThreads,
    idleMsPerSec: idle.msPerSec,
    idleWindowMs: idle.windowMs,
    idleQuiet: idle.quiet,
    idleMs,
    netMs,
    deliveries,
    perDeliveryMs: deliveries > 0 ? netMs / deliveries : null,
    tailMs: tail.ms - idle.msPerSec * tail.wallMs / 1000,
  };
}

function formatCpu(cpu) {
  return `    sender CPU (pid ${cpu.pid}): ${formatNumber(cpu.usedMs, 1)} ms${cpu.precise ? '' : ' (to the tick)'} - ` +
    `${formatNumber(cpu.idleMs, 1)} idle (${formatNumber(cpu.idleMsPerSec, 2)} ms/s over ${formatNumber(cpu.idleWindowMs / 1000, 1)} s` +
    `${cpu.idleQuiet ? '' : ', never quiet'}) = ${formatNumber(cpu.netMs, 1)} ms, ` +
    `${formatNumber(cpu.perDeliveryMs, 3)} ms per delivery (${cpu.deliveries} accepted POSTs` +
    `${cpu.mainThreadMs === null ? '' : `; main thread ${formatNumber(cpu.mainThreadMs, 0)} ms`}); ` +
    `next ${TAIL_MS} ms: ${cpu.tailMs >= 0 ? '+' : ''}${formatNumber(cpu.tailMs, 1)} ms`;
}

/** `sender`: { pid, idleWindowMs } of the process whose CPU is measured, or null (not measured). */
async function measureFanOut(session, sinks, shape, postIndex, config, runTag, sender) {
  const expected = shape.inboxes(config);
  const tag = `fedbench ${runTag} ${shape.id}${postIndex}`;
  // Before the sinks are asked anything: the target must be left alone while its idle rate is taken.
  const idle = sender ? await idleBaseline(sender.pid, { windowMs: sender.idleWindowMs, settleMs: CPU_IDLE.settleMs }) : null;
  const before = await sinks.totals();
  const fromUs = monoUs();
  const samples = {};
  samples.start = sender ? cpuSample(sender.pid) : null;
  const answer = await session.post(shape.id, tag);
  const outcome = await sinks.waitFor(tag, expected, config.deliveryTimeout * 1000);
  samples.end = sender ? cpuSample(sender.pid) : null;
  const toUs = monoUs();
  // A moment for duplicates (retried deliveries) to show up in the counts.
  await sleep(TAIL_MS);
  samples.tail = sender ? cpuSample(sender.pid) : null;
  const after = await sinks.totals();
  const stats = await sinks.stats(tag, true);
  // When the inboxes got their copy, from the answer: a steady rate (p50 near half the
  // total) means something feeds deliveries one at a time.
  const quantile = (q) => (stats.times.length > 0 ?
    stats.times[Math.min(stats.times.length - 1, Math.floor(q * stats.times.length))] - answer.at : null);
  const result = {
    tag,
    expectedInboxes: expected,
    distinctInboxes: stats.distinctInboxes,
    posts: stats.posts,
    complete: outcome.complete,
    postMs: answer.ms,
    deliveredMs: outcome.complete ? outcome.lastAt - answer.at : null,
    firstDeliveryMs: outcome.firstAt ? outcome.firstAt - answer.at : null,
    sincePostSentMs: outcome.complete ? outcome.lastAt - (answer.at - answer.ms) : null,
    arrivalMs: { p10: quantile(0.1), p50: quantile(0.5), p90: quantile(0.9) },
    actorGets: after.actorGets - before.actorGets,
    handshakes: after.handshakes - before.handshakes,
    rejected: rejectedSince(before, after),
    window: { fromUs, toUs },
    // outcome.posts: POSTs of this activity the sinks had accepted when the end sample was taken.
    cpu: sender ? senderCpu(sender.pid, samples, idle, outcome.posts) : null,
  };
  result.deliveriesPerSec = result.deliveredMs > 0 ? expected / (result.deliveredMs / 1000) : null;
  result.problems = [];
  if (!outcome.complete) {
    result.problems.push(`only ${outcome.distinctInboxes} of ${expected} inboxes within ${config.deliveryTimeout} s`);
  }
  const rejected = Object.values(result.rejected).reduce((sum, n) => sum + n, 0);
  if (rejected > 0) {
    result.problems.push(`sinks refused ${rejected} POSTs (${Object.entries(result.rejected).map(([r, n]) => `${n}x ${r}`).join('; ')})`);
  }
  result.flagged = result.problems.length > 0;
  const duplicates = stats.posts - stats.distinctInboxes;
  log(`  ${`${shape.label(config)}, ${ordinal(postIndex)} post`.padEnd(34)} ` +
    `${result.deliveredMs === null ? 'incomplete' : `${formatNumber(result.deliveredMs, 0)} ms`.padStart(8)} after the answer` +
    ` (answer ${formatNumber(result.postMs, 0)} ms; deliveries at ${formatNumber(result.firstDeliveryMs, 0)} (1st), ` +
    `${formatNumber(result.arrivalMs.p50, 0)} (50%), ${formatNumber(result.arrivalMs.p90, 0)} (90%) ms; ` +
    `${result.actorGets} actor GETs; ${result.handshakes} new TLS connections${duplicates > 0 ? `, ${duplicates} duplicate POSTs` : ''})` +
    `${result.flagged ? `  INVALID: ${result.problems.join('; ')}` : ''}`);
  if (result.cpu) {
    log(formatCpu(result.cpu));
  }
  return result;
}

// ---------- 3: inbox ingest ----------

async function waitProcessed(session, target, seconds) {
  const deadline = Date.now() + seconds * 1000;
  let count = await session.processed();
  while (count < target && Date.now() < deadline) {
    await sleep(100);
    count = await session.processed();
  }
  return { count, at: performance.timeOrigin + performance.now(), complete: count >= target };
}

async function measureIngest(session, sender, config, runTag, serverPid) {
  const { inboxUrl, recipient, port, extraHeaders } = session.ingest;
  const common = { inboxUrl, sender: sender.actor, keyId: sender.keyId, privateKey: sender.privateKey, recipient, extraHeaders };
  const signStarted = performance.now();
  const warm = buildRequests({ ...common, count: config.ingestWarmup, runTag: `${runTag}-warm` });
  const measured = buildRequests({ ...common, count: config.ingest, runTag });
  const signMs = performance.now() - signStarted;

  // Warm-up: the first request makes the server fetch the sender's key, and the rest, sent the way
  // the measured ones are, let V8 compile the hot paths first (measured: over a short run right after
  // a start, the JIT's compiler threads took half a core for the first two seconds). The measured
  // run is then the sustained rate. Waits until the warm-up has been processed so it starts clean.
  const base = await session.processed();
  const warmLoad = await runLoad({ requests: warm, port, connections: config.ingestConnections, maxSeconds: 30 });
  await waitProcessed(session, base + warmLoad.accepted, config.drainSeconds);

  const before = await session.processed();
  const cpuBefore = serverPid ? cpuSample(serverPid) : null;
  const fromUs = monoUs();
  const load = await runLoad({ requests: measured, port, connections: config.ingestConnections, maxSeconds: config.ingestSeconds });
  const loadEndUs = monoUs();
  // How far processing kept up while the load lasted: the target is a queue that does not grow.
  const atLoadEnd = await session.processed();
  const loadEndAt = performance.timeOrigin + performance.now();
  const drain = await waitProcessed(session, before + load.accepted, config.drainSeconds);
  const toUs = monoUs();
  const processed = drain.count - before;
  // The receiving server's CPU (all threads; and its main thread) per activity accepted and processed,
  // from the load's start until the queue drained: what each one cost, whatever the machine ran beside.
  const cpu = cpuBefore && processed > 0 ? cpuDelta(cpuBefore, cpuSample(serverPid)) : null;
  const result = {
    ...load,
    requests: measured.length,
    warmup: { sent: warmLoad.sent, accepted: warmLoad.accepted, statusCodes: warmLoad.statusCodes, firstProblem: warmLoad.firstProblem },
    precomputeSignMs: signMs,
    processed,
    processedComplete: drain.complete,
    processedPerSec: processed / ((drain.at - load.startedAt) / 1000),
    processedDuringLoad: atLoadEnd - before,
    processedPerSecDuringLoad: (atLoadEnd - before) / ((loadEndAt - load.startedAt) / 1000),
    queueGrowthPerSec: (load.accepted - (atLoadEnd - before)) / ((loadEndAt - load.startedAt) / 1000),
    drainPerSec: drain.count > atLoadEnd ? (drain.count - atLoadEnd) / ((drain.at - loadEndAt) / 1000) : null,
    cpuMsPerActivity: cpu ? cpu.ms / processed : null,
    mainThreadMsPerActivity: cpu && cpu.mainThreadMs !== null ? cpu.mainThreadMs / processed : null,
    cpu,
    window: { fromUs, toUs: loadEndUs },
    drainWindow: { fromUs: loadEndUs, toUs },
  };
  result.problems = [];
  if (load.sent === 0) {
    result.problems.push('no responses');
  }
  if (load.accepted < load.sent) {
    const codes = Object.keys(load.statusCodes).filter((code) => code !== '202');
    result.problems.push(`${load.sent - load.accepted} not 202 (${[...codes, ...(load.errors ? [`${load.errors} errors`] : [])].join(', ')}): ${load.firstProblem}`);
  }
  if (load.stoppedByTime) {
    result.problems.push(`stopped after ${config.ingestSeconds} s with ${load.sent} of ${measured.length} sent`);
  }
  result.flagged = result.problems.length > 0;
  log(`  inbox ingest: ${formatNumber(load.acceptedPerSec)} accepted/s (${load.accepted}/${measured.length} answered 202 in ` +
    `${formatNumber(load.elapsedMs, 0)} ms, p50 ${formatNumber(load.latencyP50Ms, 0)} ms, p99 ${formatNumber(load.latencyP99Ms, 0)} ms); ` +
    `processed ${processed} (${formatNumber(result.processedPerSec)}/s${drain.complete ? '' : `, NOT all within ${config.drainSeconds} s`}; ` +
    `${formatNumber(result.processedPerSecDuringLoad)}/s during the load, the queue growing ${formatNumber(result.queueGrowthPerSec)}/s` +
    `${result.drainPerSec === null ? '' : `, then drained at ${formatNumber(result.drainPerSec)}/s`})` +
    `${cpu ? `; server CPU ${formatNumber(result.cpuMsPerActivity, 3)} ms per activity (main thread ${formatNumber(result.mainThreadMsPerActivity, 3)})` : ''}` +
    `; load generator CPU ${formatNumber(load.generatorCpuMsPerRequest, 3)} ms per request` +
    `${result.flagged ? `  INVALID: ${result.problems.join('; ')}` : ''}`);
  return result;
}

// ---------- one target ----------

async function benchmarkTarget(target, context) {
  const { config, sinks, sender, runId } = context;
  const outcome = { info: {}, fanout: {}, ingest: null };
  // The profile is summarized after the target stops, unless the ingest part was left out.
  let profile = true;
  const startOptions = { tls: context.tls, startTimeout: config.startTimeout, followers: config.followers };
  await withTargetSession(target, startOptions, outcome, async (session) => {
    log(`  up in ${session.info.startMs} ms; log ${session.info.log}`);
    const cpuPid = config.parts.includes('fanout') || config.parts.includes('ingest') ? senderProcess(session.info) : null;
    outcome.info.cpuProcess = cpuPid;
    for (const shape of config.parts.includes('fanout') ? SHAPES : []) {
      const followers = followersOf(shape.id, sinks, config.followers);
      await session.prepareFanOut(shape.id, followers);
      await sinks.registerKeys(session.senderKeys(shape.id));
      let previousMs = CPU_IDLE.firstMs;
      for (let post = 1; post <= config.posts; post++) {
        const sender = cpuPid && { pid: cpuPid.pid, idleWindowMs: Math.min(CPU_IDLE.maxMs, Math.max(CPU_IDLE.minMs, previousMs)) };
        const result = await skipOnError(`${shape.label(config)}, ${ordinal(post)} post`,
          () => measureFanOut(session, sinks, shape, post, config, `${runId} ${target.id}`, sender));
        outcome.fanout[`${shape.id}-${post}`] = result;
        previousMs = result.window ? (result.window.toUs - result.window.fromUs) / 1000 : previousMs;
        await sleep(500);
      }
    }
    if (!config.parts.includes('ingest')) {
      profile = false;
      return;
    }
    outcome.ingest = await skipOnError('inbox ingest', () => measureIngest(session, sender, config, `${runId}-${target.id}`, cpuPid && cpuPid.pid));
  });
  // outcome.info is the session's info once the target started ({} otherwise).
  if (profile && outcome.info.profileDir) {
    outcome.profile = profilePhases(outcome.info, outcome, config);
  }
  return outcome;
}

/**
 * The node process whose CPU a fan-out is charged: the target's own (run.js spawns node
 * directly, but a wrapper would be looked through), checked in /proc. null, with the reason
 * logged, where it cannot be read (no /proc): the fan-out is then timed only.
 */
function senderProcess(info) {
  try {
    if (!info.pid) {
      throw new Error('the target reports no pid');
    }
    const found = nodeProcess(info.pid);
    log(`  sender CPU: pid ${found.pid}${found.pid === info.pid ? '' : ` (below pid ${info.pid})`}: ${found.command.slice(0, 120)}` +
      `${found.children.length > 0 ? `; NOTE: child processes ${found.children.join(', ')} are not counted` : ''}`);
    return found;
  } catch (error) {
    log(`  sender CPU: not measured: ${firstLine(error)}`);
    return null;
  }
}

// ---------- optional: where Fedpod's time went (BENCH_FED_FEDPOD_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR") ----------

const PROFILE_TOP = 8;

function profilePhases(info, outcome, config) {
  let file;
  try {
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main thread.
    file = fs.readdirSync(info.profileDir)
      .filter((name) => name.includes(`.${info.pid}.0.`) && name.endsWith('.cpuprofile'))
      .map((name) => path.join(info.profileDir, name))[0];
  } catch (error) {
    log(`  profile: ${firstLine(error)}`);
    return { error: firstLine(error) };
  }
  if (!file) {
    log(`  profile: no main-thread profile of pid ${info.pid} in ${info.profileDir}`);
    return { error: 'no profile written' };
  }
  const loaded = loadProfile(file);
  const phases = {};
  const windows = Object.entries(outcome.fanout).filter(([, result]) => result.window)
    .map(([id, result]) => [`${SHAPES.find((shape) => shape.id === id[0]).label(config)}, ${ordinal(Number(id.slice(2)))} post`, result.window]);
  if (outcome.ingest && outcome.ingest.window) {
    windows.push(['inbox ingest, load', outcome.ingest.window], ['inbox ingest, draining the queue', outcome.ingest.drainWindow]);
  }
  log(`\n  Fedpod main-thread CPU profile ${file}, by phase (time charged to the innermost Fedpod function):`);
  for (const [label, window] of windows) {
    const summary = summarize(loaded, window);
    phases[label] = { window, sampledMs: summary.sampledMs, byArea: summary.byArea.slice(0, 15),
      byFedpodFunction: summary.byFedpodFunction.slice(0, 15), byFunction: summary.byFunction.slice(0, 15) };
    log(`  -- ${label}: ${summary.sampledMs.toFixed(0)} ms`);
    log(formatEntries(summary.byFedpodFunction, PROFILE_TOP, '    '));
  }
  return { file, phases };
}

// ---------- report ----------

function cell(value, digits, flagged) {
  if (value === null || value === undefined) {
    return '-';
  }
  return `${formatNumber(value, digits)}${flagged ? ` ${FLAG}` : ''}`;
}

// One row per shape and post: `cells(result)` of each target's fan-out (`width` cells, '-' when it
// has none, 'n/a' when the target did not run), then `ratio(...)` of Fedpod against each other target.
function perFanOutRows(config, targets, outcomes, width, cells, ratio) {
  const rows = [];
  for (const shape of SHAPES) {
    for (let post = 1; post <= config.posts; post++) {
      const id = `${shape.id}-${post}`;
      const row = [`${shape.label(config)}, ${ordinal(post)} post`];
      for (const target of targets) {
        const outcome = outcomes[target.id];
        const result = outcome.fanout[id];
        const shown = outcome.unavailable || !result || result.skipped ? undefined : cells(result);
        row.push(...(shown || Array(width).fill(outcome.unavailable ? 'n/a' : '-')));
      }
      for (const other of targets.filter((target) => target.id !== 'fedpod')) {
        row.push(ratio(outcomes, 'fedpod', other.id, id));
      }
      rows.push(row);
    }
  }
  return rows;
}

function fanOutRows(config, targets, outcomes) {
  return perFanOutRows(config, targets, outcomes, 3,
    (result) => [cell(result.deliveredMs, 0, result.flagged), cell(result.firstDeliveryMs, 0), cell(result.postMs, 0)], timeRatio);
}

// Throughput ratio = other's time / Fedpod's time; '!' when either is invalid.
function fanOutRatio(outcomes, topId, bottomId, id) {
  const top = outcomes[topId] && outcomes[topId].fanout[id];
  const bottom = outcomes[bottomId] && outcomes[bottomId].fanout[id];
  if (!top || !bottom || top.skipped || bottom.skipped || !(top.deliveredMs > 0) || !(bottom.deliveredMs > 0)) {
    return { ratio: null, flagged: false };
  }
  return { ratio: bottom.deliveredMs / top.deliveredMs, flagged: top.flagged || bottom.flagged };
}

function timeRatio(outcomes, topId, bottomId, id) {
  const { ratio, flagged } = fanOutRatio(outcomes, topId, bottomId, id);
  return `${formatRatio(ratio)}${flagged && ratio !== null ? ` ${FLAG}` : ''}`;
}

function ingestRatio(outcomes, topId, bottomId, field) {
  const top = outcomes[topId] && outcomes[topId].ingest;
  const bottom = outcomes[bottomId] && outcomes[bottomId].ingest;
  if (!top || !bottom || top.skipped || bottom.skipped || !bottom[field]) {
    return '-';
  }
  return `${formatRatio(top[field] / bottom[field])}${top.flagged || bottom.flagged ? ` ${FLAG}` : ''}`;
}

function ingestRows(targets, outcomes) {
  const others = targets.filter((target) => target.id !== 'fedpod');
  const line = (label, render, field) => {
    const row = [label];
    for (const target of targets) {
      const outcome = outcomes[target.id];
      const result = outcome.ingest;
      row.push(outcome.unavailable ? 'n/a' : !result || result.skipped ? '-' : render(result));
    }
    for (const other of others) {
      row.push(field ? ingestRatio(outcomes, 'fedpod', other.id, field) : '');
    }
    return row;
  };
  return [
    line('accepted (202) activities/s', (r) => cell(r.acceptedPerSec, 1, r.flagged), 'acceptedPerSec'),
    line('p50 / p99 ms', (r) => `${formatNumber(r.latencyP50Ms, 0)} / ${formatNumber(r.latencyP99Ms, 0)}`),
    line('processed activities/s', (r) => `${formatNumber(r.processedPerSec)}${r.processedComplete ? '' : ' (partial)'}`, 'processedPerSec'),
    line('processed/s during the load (queue growth/s)', (r) => r.processedPerSecDuringLoad === undefined ? '-' :
      `${formatNumber(r.processedPerSecDuringLoad)} (${formatNumber(r.queueGrowthPerSec)})`, 'processedPerSecDuringLoad'),
    line('server CPU ms per activity (main thread)', (r) => r.cpuMsPerActivity === null ? '-' :
      `${formatNumber(r.cpuMsPerActivity, 3)} (${r.mainThreadMsPerActivity === null ? '-' : formatNumber(r.mainThreadMsPerActivity, 3)})`),
  ];
}

function notes(targets, outcomes, config) {
  const lines = [];
  for (const target of targets) {
    const outcome = outcomes[target.id];
    if (outcome.unavailable) {
      lines.push(`  ${target.label}: not available: ${outcome.unavailable}`);
      continue;
    }
    for (const [id, result] of Object.entries(outcome.fanout)) {
      const shape = SHAPES.find((candidate) => candidate.id === id[0]);
      const label = `${shape.label(config)}, ${ordinal(Number(id.slice(2)))} post`;
      if (result.skipped) {
        lines.push(`  ${target.label} / ${label}: skipped: ${result.skipped}`);
      } else if (result.flagged) {
        lines.push(`  ${FLAG} ${target.label} / ${label}: INVALID, ${result.problems.join('; ')}`);
      }
    }
    if (outcome.ingest && outcome.ingest.skipped) {
      lines.push(`  ${target.label} / inbox ingest: skipped: ${outcome.ingest.skipped}`);
    } else if (outcome.ingest && outcome.ingest.flagged) {
      lines.push(`  ${FLAG} ${target.label} / inbox ingest: INVALID, ${outcome.ingest.problems.join('; ')}`);
    }
  }
  if (lines.some((line) => line.includes(`${FLAG} `))) {
    lines.unshift(`${FLAG} = incomplete, refused or non-202 results: NOT a valid measurement`);
  }
  return lines;
}

// Sender CPU per delivery of each fan-out, and Fedpod's over the other targets' (lower is better).
function cpuRows(config, targets, outcomes) {
  return perFanOutRows(config, targets, outcomes, 2,
    (result) => (result.cpu ? [cell(result.cpu.perDeliveryMs, 3, result.flagged), cell(result.cpu.netMs, 0)] : undefined), cpuRatio);
}

function cpuRatio(outcomes, topId, bottomId, id) {
  const top = outcomes[topId] && outcomes[topId].fanout[id];
  const bottom = outcomes[bottomId] && outcomes[bottomId].fanout[id];
  if (!top || !bottom || !top.cpu || !bottom.cpu || !(bottom.cpu.perDeliveryMs > 0)) {
    return '-';
  }
  return `${formatRatio(top.cpu.perDeliveryMs / bottom.cpu.perDeliveryMs)}${top.flagged || bottom.flagged ? ` ${FLAG}` : ''}`;
}

const deliveredMs = (result) => result.deliveredMs;
const cpuPerDeliveryMs = (result) => (result.cpu ? result.cpu.perDeliveryMs : undefined);

// A fan-out figure of one target and shape (`pick`: its time by default): the 1st post, or the
// median of the later ones (followers cached). { ms } or { problem, invalid } when a result is
// missing or invalid.
function fanOutTime(outcome, shapeId, posts, pick = deliveredMs) {
  if (!outcome || outcome.unavailable) {
    return { problem: outcome ? `not available: ${outcome.unavailable}` : 'not run' };
  }
  const results = posts.map((post) => (outcome.fanout || {})[`${shapeId}-${post}`]);
  // (findIndex: a missing result is itself undefined, which find() could not tell from "none".)
  const missing = results.findIndex((result) => !result || result.skipped);
  if (missing >= 0) {
    return { problem: results[missing] ? results[missing].skipped : 'no result' };
  }
  const invalid = results.find((result) => result.flagged);
  if (invalid) {
    return { problem: invalid.problems.join('; '), invalid: true };
  }
  if (results.some((result) => typeof pick(result) !== 'number')) {
    return { problem: 'not measured' };
  }
  const times = results.map(pick).sort((a, b) => a - b);
  const middle = Math.floor(times.length / 2);
  return { ms: times.length % 2 === 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2, samples: times };
}

const sincePostSentMs = (result) => result.sincePostSentMs;

function evaluateGoals(config, outcomes) {
  const fedpod = outcomes.fedpod;
  const checks = [];
  const posts = Array.from({ length: config.posts }, (_, i) => i + 1);
  const first = process.env.BENCH_FED_FIRST_CONTACT === '1' ? 'followers never seen' : 'right after a start';
  for (const post of posts) {
    const which = post === 1 ? `1st post, ${first}` : `${ordinal(post)} post`;
    checks.push(ratioCheck({ id: `fanout-distinct-${post}`, goal: `<= ${GOALS.fanOutVsFedify}x`,
      label: `Fedpod's wall-clock / Fedify's, one Note to ${config.followers} distinct inboxes, POST to last delivery (${which})`,
      own: fanOutTime(fedpod, 'd', [post], sincePostSentMs), other: fanOutTime(outcomes.fedify, 'd', [post], sincePostSentMs),
      unit: 'ms', digits: 0, met: (ratio) => ratio <= GOALS.fanOutVsFedify }));
  }
  const groups = [{ key: 'cold', posts: [1], which: `1st post, ${first}` }];
  if (config.posts > 1) {
    const later = posts.slice(1);
    groups.push({ key: 'warm', posts: later, which: later.length > 1 ? `median of posts 2-${config.posts}` : '2nd post' });
  }
  const distinct = SHAPES.find((shape) => shape.id === 'd');
  for (const group of groups) {
    checks.push(ratioCheck({ id: `cpu-d-${group.key}`, goal: `<= ${GOALS.cpuVsFedify}x`,
      label: `Fedpod's sender CPU per delivery / Fedify's, ${distinct.label(config)} (${group.which})`,
      own: fanOutTime(fedpod, 'd', group.posts, cpuPerDeliveryMs), other: fanOutTime(outcomes.fedify, 'd', group.posts, cpuPerDeliveryMs),
      unit: 'ms', digits: 3, met: (ratio) => ratio <= GOALS.cpuVsFedify }));
  }
  const ingest = fedpod && fedpod.ingest;
  checks.push(ingestCheck(ingest, 'ingest-keeps-up', 'Fedpod inbox: processed/s during the load / accepted/s (the queue flat)',
    `>= ${GOALS.ingestKeepsUp}x`, (result) => {
      const ratio = result.processedPerSecDuringLoad / result.acceptedPerSec;
      return { measured: `${formatRatio(ratio)} (${formatNumber(result.processedPerSecDuringLoad)} / ${formatNumber(result.acceptedPerSec)}/s)`,
        value: ratio, met: ratio >= GOALS.ingestKeepsUp };
    }));
  const theirs = outcomes.fedify && outcomes.fedify.ingest;
  checks.push(ingestCheck(ingest, 'ingest-vs-fedify', 'Fedpod inbox: processed/s / Fedify\'s processed/s',
    `>= ${GOALS.ingestVsFedify}x`, (result) => {
      if (!theirs || theirs.skipped || theirs.flagged || !(theirs.processedPerSec > 0)) {
        return { met: null, reason: `Fedify: ${!theirs ? 'no result' : theirs.skipped || (theirs.problems || []).join('; ') || 'nothing processed'}` };
      }
      const ratio = result.processedPerSec / theirs.processedPerSec;
      return { measured: `${formatRatio(ratio)} (${formatNumber(result.processedPerSec)} / ${formatNumber(theirs.processedPerSec)}/s)`,
        value: ratio, met: ratio >= GOALS.ingestVsFedify };
    }));
  return checks;
}

// A goal on Fedpod's figure over the other's (`own`, `other`: fanOutTime results).
function ratioCheck({ id, label, goal, own, other, unit, digits, met }) {
  const check = { id, label, goal, measured: null, met: null, reason: '' };
  if (own.ms === undefined) {
    check.met = own.invalid ? false : null;
    check.reason = own.problem;
  } else if (other.ms === undefined) {
    check.reason = `Fedify: ${other.problem}`;
  } else if (!(other.ms > 0)) {
    check.reason = `Fedify's figure is ${formatNumber(other.ms, digits)} ${unit}`;
  } else {
    const ratio = own.ms / other.ms;
    check.measured = `${formatRatio(ratio)} (${formatNumber(own.ms, digits)} / ${formatNumber(other.ms, digits)} ${unit})`;
    check.value = ratio;
    check.met = met(ratio);
  }
  return check;
}

// A goal on Fedpod's ingest result: judged by `judge` when the result is valid.
function ingestCheck(ingest, id, label, goal, judge) {
  const check = { id, label, goal, measured: null, met: null, reason: '' };
  if (!ingest || ingest.skipped) {
    check.reason = ingest ? ingest.skipped : 'no result for fedpod';
  } else if (ingest.flagged) {
    check.met = false;
    check.reason = ingest.problems.join('; ');
  } else {
    Object.assign(check, judge(ingest));
  }
  return check;
}

function formatGoals(checks) {
  return checks.map((check) => {
    const verdict = check.met === null ? 'UNKNOWN' : check.met ? 'MET' : 'NOT MET';
    const measured = check.measured ? `, measured ${check.measured}` : '';
    const reason = check.reason ? ` (${check.reason})` : '';
    return `  [${verdict}] ${check.label}: goal ${check.goal}${measured}${reason}`;
  }).join('\n');
}

function ceilingTable(result, config) {
  const rows = [
    ['RSA-2048 sign, raw crypto.sign', result.rawSign],
    ['RSA-2048 sign, Fedpod HttpSigner (cavage)', result.httpSignerCavage],
    ['RSA-2048 verify, raw crypto.verify', result.rawVerify],
    ['RSA-2048 verify, Fedpod HttpSignatureVerifier', result.httpVerifierCavage],
  ].map(([label, perSec]) => [label, formatNumber(perSec), `${formatNumber(config.followers / perSec * 1000, 0)} ms`]);
  return formatTable([['ceiling (one core)', 'ops/s', `${config.followers} ops take`]], rows);
}

function report(context, targets, outcomes, ceilingResult) {
  const { config } = context;
  const others = targets.filter((target) => target.id !== 'fedpod');
  log(`\nFederation benchmark: ${config.followers} followers; sinks: ${config.hosts} HTTPS hosts in ` +
    `${context.sinks.processes} processes, signatures ${config.sinkVerify ? 'verified (draft-cavage + Digest)' : 'only required'}; ` +
    `Fedify ${FEDIFY_VERSION}\n`);
  const fanHeader = [
    ['fan-out of one Note', ...targets.flatMap((target) => [target.label, '', '']), ...others.map(() => 'Fedpod/')],
    ['', ...targets.flatMap(() => ['all ms', '1st ms', 'answer ms']), ...others.map((other) => other.label)],
  ];
  log(formatTable(fanHeader, fanOutRows(config, targets, outcomes)));
  log('  all ms: from the answer to the outbox POST (Fedpod 201, Fedify sendActivity() returned) until the last');
  log('  inbox accepted its copy; 1st ms: until the first did; ratios: Fedify ms / Fedpod ms (throughput).');
  if (outcomes.fedpod && !outcomes.fedpod.unavailable) {
    if (process.env.BENCH_FED_FIRST_CONTACT === '1') {
      log('  Fedpod\'s followers were seeded directly into its store, unknown to it (BENCH_FED_FIRST_CONTACT=1): on the');
      log('  1st post every actor document is fetched during the fan-out; on later posts all are in memory.');
    } else {
      log('  Fedpod\'s followers were seeded as their Follows leave them (collection + inboxes in the store), with nothing');
      log('  in memory: the 1st post is a fan-out right after a start (inboxes read from the store); later posts from memory.');
    }
  }
  if (Object.values(outcomes).some((outcome) => Object.values(outcome.fanout || {}).some((result) => result.cpu))) {
    log(`\n${formatTable([
      ['sender CPU per delivery', ...targets.flatMap((target) => [target.label, '']), ...others.map(() => 'Fedpod/')],
      ['', ...targets.flatMap(() => ['ms/deliv.', 'CPU ms']), ...others.map((other) => other.label)],
    ], cpuRows(config, targets, outcomes))}`);
    log('  utime + stime of the sending process (all threads; /proc, ns per thread when no thread ended meanwhile),');
    log('  from just before the publishing request until every inbox accepted its copy, less the idle rate measured');
    log('  just before; ms/deliv.: per accepted inbox POST; ratios: Fedpod ms / other ms (lower is better).');
  }
  log(`\n${formatTable(
    [[`inbox ingest (${config.ingest} signed Creates, ${config.ingestConnections} connections)`, ...targets.map((t) => t.label),
      ...others.map(() => 'Fedpod/')], ['', ...targets.map(() => ''), ...others.map((other) => other.label)]],
    ingestRows(targets, outcomes),
  )}`);
  log('  accepted: 202 answers per second of load (signature verified, activity queued); processed: until the');
  log('  activity was stored and in the recipient\'s inbox (Fedpod) / the inbox listener ran (Fedify), from load start.');
  log('  Plain HTTP to both servers\' ports (TLS termination excluded for both, as behind a proxy). Server CPU: utime +');
  log('  stime of the receiving process (all threads; in brackets its main thread) from load start until all were');
  log('  processed, per processed activity.');
  const tableNotes = notes(targets, outcomes, config);
  if (tableNotes.length > 0) {
    log(tableNotes.join('\n'));
  }
  if (ceilingResult) {
    log(`\n${ceilingTable(ceilingResult, config)}`);
  }
  const checks = evaluateGoals(config, outcomes);
  log(`\nTargets:\n${formatGoals(checks)}`);
  warnIfBusy('\n');
  saveResults('federation', {
    settings: { ...config, fedify: FEDIFY_VERSION, goals: GOALS },
    machineAtStart: context.machineAtStart,
    sinks: { hosts: context.sinks.hosts, processes: context.sinks.processes, signatures: config.sinkVerify ? 'verified' : 'required only', logs: context.sinks.logFiles },
    ceiling: ceilingResult,
    targets: targets.map(({ id, label, description }) => ({ id, label, description, ...outcomes[id] })),
    checks,
  });
  return checks;
}

// ---------- main ----------

const SINK_WARMUP_IN_FLIGHT = 16;

/**
 * Signed deliveries from the runner's own sender to every sink, before any target is measured: the
 * sinks' TLS, HTTP and signature-checking code is then warm for every target alike. Without it the
 * first target's first fan-out paid for the sinks' JIT warm-up and the targets after it did not.
 */
async function warmUpSinks(context, count, publicKeyPem) {
  const { sinks, sender, tls, runId } = context;
  await sinks.registerKeys({ [sender.keyId]: publicKeyPem });
  const started = Date.now();
  let next = 0;
  const refused = [];
  const send = async () => {
    for (let index = next++; index < count; index = next++) {
      const host = sinks.hosts[index % sinks.hosts.length];
      const inbox = `${host.origin}/d/users/warm${index}/inbox`;
      const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${sender.actor}/warm/${runId}-${index}`,
        type: 'Create', actor: sender.actor, object: { type: 'Note', content: `warm-up ${runId}`, attributedTo: sender.actor } });
      const headers = signPost({ url: inbox, body, keyId: sender.keyId, privateKey: sender.privateKey });
      const res = await httpsRequest(inbox, { method: 'POST', headers, body }, tls.caFile);
      if (res.status !== 202) refused.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: SINK_WARMUP_IN_FLIGHT }, send));
  if (refused.length > 0) {
    throw new Error(`sink warm-up: ${refused.length} of ${count} deliveries refused (first status ${refused[0]})`);
  }
  log(`  warmed up with ${count} signed deliveries in ${Date.now() - started} ms`);
}

async function main() {
  const config = loadFederationConfig();
  const { targets, machineAtStart } = startRun(config, { name: 'bench/federation', targets: TARGETS });
  const cores = os.cpus().length;
  log(`bench/federation: ${config.followers} followers, ${config.hosts} sink hosts, ${config.posts} posts per shape, ` +
    `ingest ${config.ingest} (+${config.ingestWarmup} warm-up) over ${config.ingestConnections} connections; ${cores} cores`);

  let ceilingResult = null;
  if (config.parts.includes('ceiling')) {
    log(`\n== ceiling: RSA-2048 on one core (bench/federation/signatures.js, ${config.ceilingSeconds} s per row)`);
    ceilingResult = await ceiling(config.ceilingSeconds);
    log(`  sign ${formatNumber(ceilingResult.rawSign)}/s (HttpSigner ${formatNumber(ceilingResult.httpSignerCavage)}/s), ` +
      `verify ${formatNumber(ceilingResult.rawVerify)}/s (HttpSignatureVerifier ${formatNumber(ceilingResult.httpVerifierCavage)}/s)`);
  }

  const workDir = makeDataDir('federation-tls');
  const tls = makeTls(path.join(workDir, 'tls'));
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyFile = path.join(workDir, 'actors.pub.pem');
  fs.writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));

  log(`\n== sinks: ${config.hosts} HTTPS hosts in ${Math.min(config.sinkProcesses, config.hosts)} processes`);
  const sinks = await startSinks({
    tls, hosts: config.hosts, processes: config.sinkProcesses, publicKeyFile, verify: config.sinkVerify,
    timeoutMs: config.startTimeout * 1000,
  });
  log(`  ${sinks.hosts.map((host) => host.port).join(', ')}`);
  const senderActor = `${sinks.hosts[0].origin}/x/users/loadgen`;
  const context = {
    config, tls, sinks, machineAtStart,
    runId: crypto.randomUUID().slice(0, 8),
    sender: { actor: senderActor, keyId: `${senderActor}#main-key`, privateKey },
  };

  const outcomes = {};
  try {
    if (config.sinkWarmup > 0 && config.parts.includes('fanout')) {
      await warmUpSinks(context, config.sinkWarmup, publicKey.export({ type: 'spki', format: 'pem' }));
    }
    for (const target of targets) {
      outcomes[target.id] = await benchmarkTarget(target, context);
    }
  } finally {
    await sinks.stop();
    destroyAgents();
  }
  const checks = report(context, targets, outcomes, ceilingResult);
  return strictExitCode(checks);
}

runMain('bench/federation', main);
