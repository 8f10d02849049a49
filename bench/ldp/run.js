#!/usr/bin/env node
'use strict';

// LDP benchmark: GET a note, POST a note, GET a 100-note container, against
// bare Node, stock CSS (memory), stock CSS (SPARQL store) and Fedpod.
//   node bench/ldp/run.js          (knobs: see bench/README.md)

const { loadConfig } = require('../lib/config');
const { stopAll, getLogDir } = require('../lib/process');
const {
  comparisonTable, evaluateChecks, formatChecks, writeResults, busyMachineWarning, machineInfo,
} = require('../lib/report');
const { cssVersion } = require('../lib/css');
const {
  log, firstLine, selectTargets, installGuards, cleanUpFiles, measureScenario,
} = require('../lib/runner');
const { prepareNotes } = require('./seed');
const { SCENARIOS, executionOrder } = require('./scenarios');
const { TARGETS } = require('./targets');

const CONTAINER_SIZE = 100;
const RATIOS = [['fedpod', 'css-sparql'], ['fedpod', 'css-memory'], ['fedpod', 'bare']];
const GOALS = [
  { label: 'Fedpod GET note vs stock CSS on the same store', scenario: 'get-note', min: 25 },
  { label: 'Fedpod GET container vs stock CSS on the same store', scenario: 'get-container', min: 25 },
  { label: 'Fedpod POST note vs stock CSS on the same store', scenario: 'post-note', min: 10 },
].map((goal) => ({ ...goal, numerator: 'fedpod', denominator: 'css-sparql' }));

// The ldp table's progress lines pad labels to 18 characters.
const LABEL_WIDTH = 18;

function runScenario(session, scenario, prepared, config) {
  return measureScenario(session, { label: scenario.label, spec: scenario.request(prepared), labelWidth: LABEL_WIDTH }, config);
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

async function main() {
  const config = loadConfig();
  installGuards(config);
  const targets = selectTargets(TARGETS, config);
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
