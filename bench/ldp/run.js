#!/usr/bin/env node
'use strict';

// LDP benchmark: GET a note, POST a note, GET a 100-note container, against
// bare Node, stock CSS (memory), stock CSS (SPARQL store) and Fedpod.
//   node bench/ldp/run.js          (knobs: see bench/README.md)

const { loadConfig } = require('../lib/config');
const { cssVersion } = require('../lib/css');
const {
  log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, withTargetSession, skipOnError,
  logStoreNotes, logComparison, logChecksVsCss, measureScenario,
} = require('../lib/runner');
const { prepareNotes } = require('./seed');
const { SCENARIOS, executionOrder } = require('./scenarios');
const { TARGETS } = require('./targets');

const CONTAINER_SIZE = 100;
const RATIOS = [['fedpod', 'css-sparql'], ['fedpod-wac', 'css-sparql'], ['fedpod-wac', 'fedpod'], ['fedpod', 'css-memory'], ['fedpod', 'bare']];
// css-sparql is stock CSS with WebACL (its root ACL lets everyone do everything); fedpod-wac checks
// WebACL on every request too, against an ACL that grants the same.
const GOALS = [
  { label: 'Fedpod GET note vs stock CSS on the same store', scenario: 'get-note', min: 25 },
  { label: 'Fedpod GET container vs stock CSS on the same store', scenario: 'get-container', min: 25 },
  { label: 'Fedpod POST note vs stock CSS on the same store', scenario: 'post-note', min: 10 },
].map((goal) => ({ ...goal, numerator: 'fedpod', denominator: 'css-sparql' })).concat([
  { label: 'Fedpod with WebACL GET note vs stock CSS with WebACL', scenario: 'get-note', min: 25 },
  { label: 'Fedpod with WebACL GET container vs stock CSS with WebACL', scenario: 'get-container', min: 25 },
  { label: 'Fedpod with WebACL POST note vs stock CSS with WebACL', scenario: 'post-note', min: 10 },
].map((goal) => ({ ...goal, numerator: 'fedpod-wac', denominator: 'css-sparql' }))).concat([
  { label: 'Fedpod with WebACL GET note vs its public-append setup', scenario: 'get-note', min: 0.7 },
  { label: 'Fedpod with WebACL GET container vs its public-append setup', scenario: 'get-container', min: 0.7 },
].map((goal) => ({ ...goal, numerator: 'fedpod-wac', denominator: 'fedpod' }))).concat([
  // Stock CSS on a SPARQL store keeps RDF only: files are compared with stock CSS in memory.
  { label: 'Fedpod GET 100 kB file vs stock CSS (memory)', scenario: 'get-file', min: 10 },
  { label: 'Fedpod PUT 100 kB file vs stock CSS (memory)', scenario: 'put-file', min: 5 },
].map((goal) => ({ ...goal, numerator: 'fedpod', denominator: 'css-memory' }))).concat([
  // The floor: a Node server that writes and fsyncs the file and its directory and does nothing else.
  { label: 'Fedpod PUT 100 kB file vs the bare durable server', scenario: 'put-file', min: 0.3 },
].map((goal) => ({ ...goal, numerator: 'fedpod', denominator: 'bare' })));

// The ldp table's progress lines pad labels to 18 characters.
const LABEL_WIDTH = 18;

function runScenario(session, scenario, prepared, config) {
  return measureScenario(session, { label: scenario.label, spec: scenario.request(prepared), labelWidth: LABEL_WIDTH }, config);
}

// Start, seed, load and stop one target. Never throws: failures are recorded.
async function benchmarkTarget(target, config) {
  const outcome = { info: {}, results: {} };
  await withTargetSession(target, config, outcome, async (session) => {
    const prepared = await prepareNotes(session.baseUrl, CONTAINER_SIZE, session.containerPath);
    outcome.info.seed = { container: prepared.container, ...prepared.shape };
    log(`  up at ${session.baseUrl}, /notes/ ${prepared.container}, ${CONTAINER_SIZE} notes seeded; ` +
      `answers: note ${prepared.shape.noteBytes} B, container ${prepared.shape.containerBytes} B`);
    logStoreNotes(session.info);
    for (const scenario of executionOrder(SCENARIOS)) {
      outcome.results[scenario.id] = await skipOnError(scenario.label,
        () => runScenario(session, scenario, prepared, config));
    }
  });
  return outcome;
}

function report(config, targets, outcomes, machineAtStart) {
  const title = `\nLDP benchmark: ${config.connections} connections, ${config.duration} s per scenario ` +
    `(after ${config.warmup} s warm-up), container of ${CONTAINER_SIZE} notes, CSS ${cssVersion()}\n`;
  const results = logComparison(title, { scenarios: SCENARIOS, targets, outcomes, ratios: RATIOS });
  const checks = logChecksVsCss(GOALS, results, outcomes);
  warnIfBusy('\n');
  saveResults('ldp', {
    settings: { ...config, containerSize: CONTAINER_SIZE, cssVersion: cssVersion() },
    machineAtStart,
    scenarios: SCENARIOS.map(({ id, label, kind }) => ({ id, label, kind })),
    targets: targets.map(({ id, label, description }) => ({ id, label, description, ...outcomes[id] })),
    checks,
  });
  return checks;
}

async function main() {
  const config = loadConfig();
  // No name: the over-time message keeps its plain "bench:" prefix.
  const { targets, machineAtStart } = startRun(config, { targets: TARGETS });
  const outcomes = {};
  for (const target of targets) {
    outcomes[target.id] = await benchmarkTarget(target, config);
  }
  const checks = report(config, targets, outcomes, machineAtStart);
  return strictExitCode(checks);
}

runMain('bench/ldp', main);
