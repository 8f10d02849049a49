#!/usr/bin/env node
'use strict';

// Actor benchmark: GET an actor document, an outbox page and a followers
// collection from Fedpod (activitypub config), and the same documents from
// stock CSS (memory and SPARQL store) and bare Node.
//   node bench/actors/run.js          (knobs: see bench/README.md)

const { loadConfig } = require('../lib/config');
const { formatTable } = require('../lib/report');
const { cssVersion } = require('../lib/css');
const {
  log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, withTargetSession, skipOnError,
  logStoreNotes, logComparison, logChecksVsCss, measureScenario,
} = require('../lib/runner');
const { SCENARIOS } = require('./scenarios');
const { TARGETS } = require('./targets');
const { representativeDocuments } = require('./documents');

const BASELINE = TARGETS.some((target) => target.id === 'fedpod-baseline');
const RATIOS = [['fedpod', 'css-sparql'], ['fedpod', 'css-memory'], ['fedpod', 'bare']]
  .concat(BASELINE ? [['fedpod', 'fedpod-baseline']] : []);
// With BENCH_BASELINE_ROOT, every scenario is also held to 90% of that checkout's rate in the same run.
const GOALS = [
  { label: 'Fedpod GET actor vs stock CSS on the same store', scenario: 'get-actor', min: 10 },
].map((goal) => ({ ...goal, numerator: 'fedpod', denominator: 'css-sparql' })).concat(BASELINE ?
  SCENARIOS.map((scenario) => ({ label: `Fedpod ${scenario.label} vs the baseline checkout`, scenario: scenario.id, min: 0.9,
    numerator: 'fedpod', denominator: 'fedpod-baseline' })) : []);

// Fedpod runs first: the other targets serve copies of its answers.
function executionOrder(targets) {
  return [...targets].sort((left, right) => (right.id === 'fedpod') - (left.id === 'fedpod'));
}

function describeAnswers(scenarios) {
  return SCENARIOS.map((scenario) => {
    const entry = scenarios[scenario.id];
    return `${scenario.id.replace(/^get-/, '')} ${entry.skipped ? 'skipped' : `${entry.bytes} B ${entry.contentType}`}`;
  }).join(', ');
}

// Start, prepare, load and stop one target. Never throws: failures are recorded.
async function benchmarkTarget(target, config, documents) {
  const outcome = { info: {}, results: {}, answers: {} };
  await withTargetSession(target, config, outcome, async (session) => {
    const prepared = await target.prepare(session, documents);
    outcome.documents = prepared.documents;
    for (const [id, entry] of Object.entries(prepared.scenarios)) {
      outcome.answers[id] = entry.skipped ? { skipped: entry.skipped } :
        { url: entry.spec.url, contentType: entry.contentType, bytes: entry.bytes };
    }
    log(`  up at ${session.baseUrl}; answers: ${describeAnswers(prepared.scenarios)}`);
    if (session.info.webId) {
      log(`  signed up: ${session.info.webId}`);
    }
    logStoreNotes(session.info);
    for (const scenario of SCENARIOS) {
      const entry = prepared.scenarios[scenario.id];
      if (entry.skipped) {
        outcome.results[scenario.id] = { skipped: entry.skipped };
        log(`  ${scenario.label}: skipped: ${entry.skipped}`);
        continue;
      }
      outcome.results[scenario.id] = await skipOnError(scenario.label,
        () => measureScenario(session, { label: scenario.label, spec: entry.spec }, config));
    }
  });
  return outcome;
}

// Fedpod's answers where it gave them, representative documents elsewhere
// (each with the reason), by scenario id.
function documentsToServe(fedpodOutcome) {
  const representative = representativeDocuments();
  const documents = {};
  for (const scenario of SCENARIOS) {
    const fromFedpod = fedpodOutcome && fedpodOutcome.documents && fedpodOutcome.documents[scenario.id];
    if (fromFedpod) {
      documents[scenario.id] = fromFedpod;
      continue;
    }
    let reason = 'Fedpod not in BENCH_TARGETS';
    if (fedpodOutcome && fedpodOutcome.unavailable) {
      reason = 'Fedpod not available';
    } else if (fedpodOutcome) {
      reason = 'Fedpod\'s answer not usable';
    }
    documents[scenario.id] = { ...representative[scenario.id], reason };
  }
  return documents;
}

function describeDocuments(documents) {
  return SCENARIOS.map((scenario) => {
    const document = documents[scenario.id];
    const origin = document.source === 'fedpod' ? 'Fedpod\'s answer' : `representative (${document.reason})`;
    return `  ${scenario.label}: ${Buffer.byteLength(document.text)} B, ${origin}`;
  }).join('\n');
}

function sizesTable(targets, outcomes) {
  const header = [['answer bytes', ...targets.map((target) => target.label)]];
  const rows = SCENARIOS.map((scenario) => [scenario.label, ...targets.map((target) => {
    const answer = outcomes[target.id].answers[scenario.id];
    return answer && !answer.skipped ? String(answer.bytes) : '-';
  })]);
  return formatTable(header, rows);
}

function report(config, targets, outcomes, documents, machineAtStart) {
  const title = `\nActor benchmark: ${config.connections} connections, ${config.duration} s per scenario ` +
    `(after ${config.warmup} s warm-up), CSS ${cssVersion()}\n`;
  const results = logComparison(title, { scenarios: SCENARIOS, targets, outcomes, ratios: RATIOS });
  log(`\n${sizesTable(targets, outcomes)}`);
  if (documents) {
    log(`\nDocuments served by the other targets:\n${describeDocuments(documents)}`);
  }
  const checks = logChecksVsCss(GOALS, results, outcomes);
  warnIfBusy('\n');
  saveResults('actors', {
    settings: { ...config, cssVersion: cssVersion() },
    machineAtStart,
    scenarios: SCENARIOS.map(({ id, label, kind, copyPath }) => ({ id, label, kind, copyPath })),
    documents,
    targets: targets.map(({ id, label, description }) => {
      // The documents themselves are written once, at the top.
      const outcome = { ...outcomes[id] };
      delete outcome.documents;
      return { id, label, description, ...outcome };
    }),
    checks,
  });
  return checks;
}

async function main() {
  const config = loadConfig();
  const { targets, machineAtStart } = startRun(config, { name: 'bench/actors', targets: TARGETS });
  const outcomes = {};
  let documents = null;
  for (const target of executionOrder(targets)) {
    if (target.id !== 'fedpod' && !documents) {
      documents = documentsToServe(outcomes.fedpod);
      log(`\nDocuments the other targets serve:\n${describeDocuments(documents)}`);
    }
    outcomes[target.id] = await benchmarkTarget(target, config, documents);
  }
  const checks = report(config, targets, outcomes, documents, machineAtStart);
  return strictExitCode(checks);
}

runMain('bench/actors', main);
