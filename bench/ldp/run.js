#!/usr/bin/env node
'use strict';

// LDP benchmark: GET a note, POST a note, GET a 100-note container, against
// bare Node, stock CSS (memory), stock CSS (SPARQL store) and Fedpod.
//   node bench/ldp/run.js          (knobs: see bench/README.md)

const { loadConfig } = require('../lib/config');
const { request } = require('../lib/http');
const { stopAll, killAllNow, getLogDir, sleep } = require('../lib/process');
const { measure } = require('../lib/load');
const {
  comparisonTable, evaluateChecks, formatChecks, formatNumber, writeResults, busyMachineWarning, machineInfo,
} = require('../lib/report');
const { removeHostDir, cssVersion } = require('../lib/css');
const { removeTempDirs } = require('../lib/fedpod');
const { prepareNotes } = require('./seed');
const { SCENARIOS, executionOrder } = require('./scenarios');
const { TARGETS } = require('./targets');

const CONTAINER_SIZE = 100;
const ROUNDTRIP_PROBES = 10;
const SETTLE_NOTICE_MS = 1000;
const QUIET_INTERVAL_MS = 500;
const QUIET_BUDGET_MS = 15000;
const RATIOS = [['fedpod', 'css-sparql'], ['fedpod', 'css-memory'], ['fedpod', 'bare']];
const GOALS = [
  { label: 'Fedpod GET note vs stock CSS on the same store', scenario: 'get-note', min: 25 },
  { label: 'Fedpod GET container vs stock CSS on the same store', scenario: 'get-container', min: 25 },
  { label: 'Fedpod POST note vs stock CSS on the same store', scenario: 'post-note', min: 10 },
].map((goal) => ({ ...goal, numerator: 'fedpod', denominator: 'css-sparql' }));

function log(message) {
  process.stdout.write(`${message}\n`);
}

function firstLine(error) {
  return String(error && error.message ? error.message : error).split('\n')[0];
}

// Requests aborted at the end of a load run keep querying the store for a
// while; wait until its counters stop moving (bounded) before probing.
async function quietStoreStats(session) {
  let previous = await session.storeStats();
  const deadline = Date.now() + QUIET_BUDGET_MS;
  while (Date.now() < deadline) {
    await sleep(QUIET_INTERVAL_MS);
    const current = await session.storeStats();
    if (JSON.stringify(current) === JSON.stringify(previous)) {
      return current;
    }
    previous = current;
  }
  return previous;
}

// Send a few requests one at a time and report how many SPARQL requests the
// store received per HTTP request (only for stores that count them).
async function storeRoundTrips(session, spec) {
  const before = await quietStoreStats(session);
  for (let i = 0; i < ROUNDTRIP_PROBES; i++) {
    const body = spec.makeBody ? spec.makeBody(`probe-${i}`) : spec.body;
    await request(spec.url, { method: spec.method || 'GET', headers: spec.headers, body });
  }
  const after = await session.storeStats();
  const perRequest = {};
  for (const [kind, total] of Object.entries(after)) {
    const delta = total - (before[kind] || 0);
    if (delta > 0) {
      perRequest[kind] = delta / ROUNDTRIP_PROBES;
    }
  }
  return perRequest;
}

function describeRoundTrips(perRequest) {
  const round = (value) => Math.round(value * 10) / 10;
  const total = Object.values(perRequest).reduce((sum, value) => sum + value, 0);
  const parts = Object.entries(perRequest).map(([kind, value]) => `${round(value)} ${kind}`);
  return `${round(total)} SPARQL requests per HTTP request (${parts.join(', ')})`;
}

async function runScenario(session, scenario, prepared, config) {
  const spec = scenario.request(prepared);
  const summary = await measure(spec, config);
  const flag = summary.flagged ? `  INVALID: ${summary.problems.join('; ')}` : '';
  const waited = summary.settleMs > SETTLE_NOTICE_MS ? `  (waited ${summary.settleMs} ms to settle first)` : '';
  log(`  ${scenario.label.padEnd(18)} ${formatNumber(summary.reqPerSec).padStart(8)} req/s  ` +
    `p50 ${formatNumber(summary.latencyP50Ms, 0)} ms  p99 ${formatNumber(summary.latencyP99Ms, 0)} ms${flag}${waited}`);
  if (session.storeStats) {
    summary.storeRoundTrips = await storeRoundTrips(session, spec);
    log(`  ${''.padEnd(18)} store: ${describeRoundTrips(summary.storeRoundTrips)}`);
  }
  return summary;
}

// Start, seed, load and stop one target. Never throws: failures are recorded.
async function benchmarkTarget(target, config) {
  const outcome = { info: {}, results: {} };
  log(`\n== ${target.label}: ${target.description}`);
  let session;
  try {
    session = await target.start(config);
    outcome.info = session.info;
    const prepared = await prepareNotes(session.baseUrl, CONTAINER_SIZE);
    outcome.info.seed = { container: prepared.container, ...prepared.shape };
    log(`  up at ${session.baseUrl}, /notes/ ${prepared.container}, ${CONTAINER_SIZE} notes seeded; ` +
      `answers: note ${prepared.shape.noteBytes} B, container ${prepared.shape.containerBytes} B`);
    if (session.info.storeNote) {
      log(`  store: ${session.info.storeNote}`);
    }
    if (session.info.storeFallbackReason) {
      log(`  (Fedpod's store not used: ${session.info.storeFallbackReason})`);
    }
    for (const scenario of executionOrder(SCENARIOS)) {
      try {
        outcome.results[scenario.id] = await runScenario(session, scenario, prepared, config);
      } catch (error) {
        outcome.results[scenario.id] = { skipped: firstLine(error) };
        log(`  ${scenario.label}: skipped: ${firstLine(error)}`);
      }
    }
  } catch (error) {
    outcome.unavailable = firstLine(error);
    outcome.detail = String(error.message || error);
    log(`  not available: ${outcome.unavailable}`);
  } finally {
    if (session) {
      await session.stop();
    }
  }
  return outcome;
}

function selectTargets(config) {
  if (!config.targets) {
    return TARGETS;
  }
  const unknown = config.targets.filter((id) => !TARGETS.some((target) => target.id === id));
  if (unknown.length > 0) {
    throw new Error(`unknown BENCH_TARGETS ${unknown.join(',')}; known: ${TARGETS.map((t) => t.id).join(',')}`);
  }
  return TARGETS.filter((target) => config.targets.includes(target.id));
}

function report(config, targets, outcomes, machineAtStart) {
  const results = {};
  const tableTargets = targets.map((target) => {
    results[target.id] = outcomes[target.id].results;
    return { id: target.id, label: target.label, unavailable: outcomes[target.id].unavailable };
  });
  const ratios = RATIOS.filter(([top, bottom]) => results[top] && results[bottom]);
  log(`\nLDP benchmark: ${config.connections} connections, ${config.duration} s per scenario ` +
    `(after ${config.warmup} s warm-up), container of ${CONTAINER_SIZE} notes, CSS ${cssVersion()}\n`);
  log(comparisonTable({ scenarios: SCENARIOS, targets: tableTargets, results, ratios }));
  const checks = evaluateChecks(GOALS, results);
  log(`\nIssue targets (Fedpod vs stock CSS on the same SPARQL store):\n${formatChecks(checks)}`);
  const sparqlInfo = outcomes['css-sparql'] && outcomes['css-sparql'].info;
  if (sparqlInfo && sparqlInfo.store) {
    log(`  (CSS-sparql ran on: ${sparqlInfo.storeNote}` +
      `${sparqlInfo.store === 'fedpod-store' ? ')' : ', NOT Fedpod\'s store, see above why)'}`);
  }
  const busy = busyMachineWarning();
  if (busy) {
    log(`\n${busy}`);
  }
  const file = writeResults('ldp', {
    settings: { ...config, containerSize: CONTAINER_SIZE, cssVersion: cssVersion() },
    machineAtStart,
    scenarios: SCENARIOS.map(({ id, label, kind }) => ({ id, label, kind })),
    targets: targets.map(({ id, label, description }) => ({ id, label, description, ...outcomes[id] })),
    checks,
  });
  log(`\nJSON results: ${file}\nserver logs: ${getLogDir()}`);
  return checks;
}

function cleanUpFiles() {
  removeHostDir();
  removeTempDirs();
}

// Hard limits: a wall-clock budget for the whole run, and no orphaned servers
// when interrupted.
function installGuards(config) {
  const timer = setTimeout(() => {
    process.stderr.write(`\nbench: exceeded BENCH_MAX_SECONDS=${config.maxSeconds}, aborting\n`);
    killAllNow();
    cleanUpFiles();
    process.exit(2);
  }, config.maxSeconds * 1000);
  timer.unref();
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      killAllNow();
      cleanUpFiles();
      process.exit(130);
    });
  }
  process.on('exit', killAllNow);
}

async function main() {
  const config = loadConfig();
  installGuards(config);
  const targets = selectTargets(config);
  const machineAtStart = machineInfo();
  const busy = busyMachineWarning();
  if (busy) {
    log(busy);
  }
  const outcomes = {};
  for (const target of targets) {
    outcomes[target.id] = await benchmarkTarget(target, config);
  }
  const checks = report(config, targets, outcomes, machineAtStart);
  const strictFailure = process.env.BENCH_STRICT === '1' && checks.some((check) => check.met !== true);
  return strictFailure ? 1 : 0;
}

main()
  .then((code) => {
    cleanUpFiles();
    process.exitCode = code;
  })
  .catch(async (error) => {
    process.stderr.write(`bench/ldp failed: ${error.stack || error}\n`);
    await stopAll();
    cleanUpFiles();
    process.exitCode = 1;
  });
