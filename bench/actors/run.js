#!/usr/bin/env node
'use strict';

// Actor benchmark: GET an actor document, an outbox page and a followers
// collection from Fedpod (activitypub config), and the same documents from
// stock CSS (memory and SPARQL store) and bare Node.
//   node bench/actors/run.js          (knobs: see bench/README.md)

const { loadConfig } = require('../lib/config');
const { getLogDir } = require('../lib/process');
const {
  comparisonTable, evaluateChecks, formatChecks, formatTable, writeResults, busyMachineWarning, machineInfo,
} = require('../lib/report');
const { cssVersion } = require('../lib/css');
const {
  log, firstLine, selectTargets, installGuards, cleanUpFiles, measureScenario,
} = require('../lib/runner');
const { stopAll } = require('../lib/process');
const { SCENARIOS } = require('./scenarios');
const { TARGETS } = require('./targets');
const { representativeDocuments } = require('./documents');

const RATIOS = [['fedpod', 'css-sparql'], ['fedpod', 'css-memory'], ['fedpod', 'bare']];
const GOALS = [
  { label: 'Fedpod GET actor vs stock CSS on the same store', scenario: 'get-actor', min: 10 },
].map((goal) => ({ ...goal, numerator: 'fedpod', denominator: 'css-sparql' }));

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
  log(`\n== ${target.label}: ${target.description}`);
  let session;
  try {
    session = await target.start(config);
    outcome.info = session.info;
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
    if (session.info.storeNote) {
      log(`  store: ${session.info.storeNote}`);
    }
    if (session.info.storeFallbackReason) {
      log(`  (Fedpod's store not used: ${session.info.storeFallbackReason})`);
    }
    for (const scenario of SCENARIOS) {
      const entry = prepared.scenarios[scenario.id];
      if (entry.skipped) {
        outcome.results[scenario.id] = { skipped: entry.skipped };
        log(`  ${scenario.label}: skipped: ${entry.skipped}`);
        continue;
      }
      try {
        outcome.results[scenario.id] = await measureScenario(session, { label: scenario.label, spec: entry.spec }, config);
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
  const results = {};
  const tableTargets = targets.map((target) => {
    results[target.id] = outcomes[target.id].results;
    return { id: target.id, label: target.label, unavailable: outcomes[target.id].unavailable };
  });
  const ratios = RATIOS.filter(([top, bottom]) => results[top] && results[bottom]);
  log(`\nActor benchmark: ${config.connections} connections, ${config.duration} s per scenario ` +
    `(after ${config.warmup} s warm-up), CSS ${cssVersion()}\n`);
  log(comparisonTable({ scenarios: SCENARIOS, targets: tableTargets, results, ratios }));
  log(`\n${sizesTable(targets, outcomes)}`);
  if (documents) {
    log(`\nDocuments served by the other targets:\n${describeDocuments(documents)}`);
  }
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
  const file = writeResults('actors', {
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
  log(`\nJSON results: ${file}\nserver logs: ${getLogDir()}`);
  return checks;
}

async function main() {
  const config = loadConfig();
  installGuards(config, 'bench/actors');
  const targets = selectTargets(TARGETS, config);
  const machineAtStart = machineInfo();
  const busy = busyMachineWarning();
  if (busy) {
    log(busy);
  }
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
  const strictFailure = process.env.BENCH_STRICT === '1' && checks.some((check) => check.met !== true);
  return strictFailure ? 1 : 0;
}

main()
  .then((code) => {
    cleanUpFiles();
    process.exitCode = code;
  })
  .catch(async (error) => {
    process.stderr.write(`bench/actors failed: ${error.stack || error}\n`);
    await stopAll();
    cleanUpFiles();
    process.exitCode = 1;
  });
