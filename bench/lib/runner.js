'use strict';

// Pieces of a benchmark run that every bench/<name>/run.js needs: logging,
// target selection, hard limits, the opening and end of main(), one target's
// start/stop, measuring one scenario (plus the SPARQL round-trip probe on
// stores that count requests), the Fedpod-vs-CSS report, and clean-up.

const { request } = require('./http');
const { sleep, killAllNow, stopAll, getLogDir } = require('./process');
const { measure, requestAt } = require('./load');
const {
  formatNumber, comparisonTable, evaluateChecks, formatChecks, writeResults, busyMachineWarning, machineInfo,
} = require('./report');
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

// Printed at the start of a run and again before its results, so that noisy
// numbers come with their reason.
function warnIfBusy(prefix = '') {
  const busy = busyMachineWarning();
  if (busy) {
    log(`${prefix}${busy}`);
  }
}

/**
 * The opening of every main(): installGuards() first, then the targets named
 * by BENCH_TARGETS (only when `targets` is given; runners with their own rule
 * leave it out), then the machine's state before any server starts.
 * Returns { targets, machineAtStart }.
 */
function startRun(config, { name, targets } = {}) {
  installGuards(config, name);
  const selected = targets ? selectTargets(targets, config) : undefined;
  const machineAtStart = machineInfo();
  warnIfBusy();
  return { targets: selected, machineAtStart };
}

/**
 * Run main() (resolving to an exit code) and end the process the same way in
 * every runner: scratch files removed; on an unexpected error the stack on
 * stderr as "<name> failed: ...", every server still running stopped, exit 1.
 */
function runMain(name, main) {
  return main()
    .then((code) => {
      cleanUpFiles();
      process.exitCode = code;
    })
    .catch(async (error) => {
      process.stderr.write(`${name} failed: ${error.stack || error}\n`);
      await stopAll();
      cleanUpFiles();
      process.exitCode = 1;
    });
}

// With BENCH_STRICT=1 a run whose targets are not all met exits 1.
function strictExitCode(checks) {
  return process.env.BENCH_STRICT === '1' && checks.some((check) => check.met !== true) ? 1 : 0;
}

// Write the JSON results (writeResults()) and say where they and the server logs are.
function saveResults(name, payload) {
  const file = writeResults(name, payload);
  log(`\nJSON results: ${file}\nserver logs: ${getLogDir()}`);
  return file;
}

/**
 * Start `target` with `startOptions`, record session.info on `outcome`, hand
 * the session to `body`, and stop it again whatever happens. A target that
 * fails to start or to get ready is recorded on `outcome` (unavailable: the
 * first line, detail: the whole message) instead of ending the run.
 */
async function withTargetSession(target, startOptions, outcome, body) {
  log(`\n== ${target.label}: ${target.description}`);
  let session;
  try {
    session = await target.start(startOptions);
    outcome.info = session.info;
    await body(session);
  } catch (error) {
    outcome.unavailable = firstLine(error);
    outcome.detail = String(error.message || error);
    log(`  not available: ${outcome.unavailable}`);
  } finally {
    if (session) {
      await session.stop();
    }
  }
}

// One scenario that fails is reported and recorded as { skipped }; the others still run.
async function skipOnError(label, run) {
  try {
    return await run();
  } catch (error) {
    log(`  ${label}: skipped: ${firstLine(error)}`);
    return { skipped: firstLine(error) };
  }
}

// Which SPARQL store a target ended up on (CSS-sparql and Fedpod targets say so in session.info).
function logStoreNotes(info) {
  if (info.storeNote) {
    log(`  store: ${info.storeNote}`);
  }
  if (info.storeFallbackReason) {
    log(`  (Fedpod's store not used: ${info.storeFallbackReason})`);
  }
}

/**
 * The report of a Fedpod-vs-stock-CSS comparison (bench/actors, bench/ldp):
 * `title`, then the req/s table of every target's outcome.results, with those
 * of `ratios` whose two targets both ran. Returns the results by target id.
 */
function logComparison(title, { scenarios, targets, outcomes, ratios }) {
  const results = {};
  const tableTargets = targets.map((target) => {
    results[target.id] = outcomes[target.id].results;
    return { id: target.id, label: target.label, unavailable: outcomes[target.id].unavailable };
  });
  const shown = ratios.filter(([top, bottom]) => results[top] && results[bottom]);
  log(title);
  log(comparisonTable({ scenarios, targets: tableTargets, results, ratios: shown }));
  return results;
}

/**
 * Evaluate and print `goals` (Fedpod vs stock CSS on the same SPARQL store),
 * then which store CSS-sparql really ran on. Returns the checks.
 */
function logChecksVsCss(goals, results, outcomes) {
  const checks = evaluateChecks(goals, results);
  log(`\nTargets (ratios of this run):\n${formatChecks(checks)}`);
  const sparqlInfo = outcomes['css-sparql'] && outcomes['css-sparql'].info;
  if (sparqlInfo && sparqlInfo.store) {
    log(`  (CSS-sparql ran on: ${sparqlInfo.storeNote}` +
      `${sparqlInfo.store === 'fedpod-store' ? ')' : ', NOT Fedpod\'s store, see above why)'}`);
  }
  return checks;
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
    const { url, method, headers, body } = requestAt(spec, `probe-${i}`);
    await request(url, { method, headers, body });
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
  if (summary.notes) {
    log(`  ${''.padEnd(labelWidth)} ${summary.notes}`);
  }
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
  warnIfBusy,
  startRun,
  runMain,
  strictExitCode,
  saveResults,
  withTargetSession,
  skipOnError,
  logStoreNotes,
  logComparison,
  logChecksVsCss,
  storeRoundTrips,
  describeRoundTrips,
  measureScenario,
};
