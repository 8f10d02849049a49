'use strict';

// Pieces of a benchmark run that every bench/<name>/run.js needs: logging,
// target selection, hard limits, measuring one scenario (plus the SPARQL
// round-trip probe on stores that count requests) and clean-up.

const { request } = require('./http');
const { sleep, killAllNow } = require('./process');
const { measure } = require('./load');
const { formatNumber } = require('./report');
const { removeHostDir } = require('./css');
const { removeTempDirs } = require('./fedpod');

const ROUNDTRIP_PROBES = 10;
const SETTLE_NOTICE_MS = 1000;
const QUIET_INTERVAL_MS = 500;
const QUIET_BUDGET_MS = 15000;

function log(message) {
  process.stdout.write(`${message}\n`);
}

function firstLine(error) {
  return String(error && error.message ? error.message : error).split('\n')[0];
}

/** The targets named by BENCH_TARGETS (all when unset); unknown ids are an error. */
function selectTargets(targets, config) {
  if (!config.targets) {
    return targets;
  }
  const unknown = config.targets.filter((id) => !targets.some((target) => target.id === id));
  if (unknown.length > 0) {
    throw new Error(`unknown BENCH_TARGETS ${unknown.join(',')}; known: ${targets.map((t) => t.id).join(',')}`);
  }
  return targets.filter((target) => config.targets.includes(target.id));
}

function cleanUpFiles() {
  removeHostDir();
  removeTempDirs();
}

// Hard limits: a wall-clock budget for the whole run (exit code 2), and no
// orphaned servers when interrupted.
function installGuards(config, name = 'bench') {
  const timer = setTimeout(() => {
    process.stderr.write(`\n${name}: exceeded BENCH_MAX_SECONDS=${config.maxSeconds}, aborting\n`);
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

/**
 * Send a few requests of `spec` one at a time; resolves to the SPARQL requests
 * the store received per HTTP request, by kind ({ CONSTRUCT: 7, ... }).
 * Needs session.storeStats() (only stores that count requests have it).
 */
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

/**
 * Load one scenario (measure() from load.js), print a one-line summary and,
 * when the session's store counts requests, the store round trips per request.
 * `labelWidth` pads the label column of those lines.
 * Resolves to the summary; throws only when the server never settles.
 */
async function measureScenario(session, { label, spec, labelWidth = 20 }, config) {
  const summary = await measure(spec, config);
  const flag = summary.flagged ? `  INVALID: ${summary.problems.join('; ')}` : '';
  const waited = summary.settleMs > SETTLE_NOTICE_MS ? `  (waited ${summary.settleMs} ms to settle first)` : '';
  log(`  ${label.padEnd(labelWidth)} ${formatNumber(summary.reqPerSec).padStart(8)} req/s  ` +
    `p50 ${formatNumber(summary.latencyP50Ms, 0)} ms  p99 ${formatNumber(summary.latencyP99Ms, 0)} ms${flag}${waited}`);
  if (session.storeStats) {
    summary.storeRoundTrips = await storeRoundTrips(session, spec);
    log(`  ${''.padEnd(labelWidth)} store: ${describeRoundTrips(summary.storeRoundTrips)}`);
  }
  return summary;
}

module.exports = {
  log,
  firstLine,
  selectTargets,
  cleanUpFiles,
  installGuards,
  storeRoundTrips,
  describeRoundTrips,
  measureScenario,
};
