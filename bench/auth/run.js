#!/usr/bin/env node
'use strict';

// Auth benchmark: GETs, PUTs and PATCHes (SPARQL Update, N3 Patch) of a small Turtle resource in the user's own storage with a
// Solid-OIDC DPoP-bound access token (a fresh proof per request), with Fedpod's own token, and
// anonymous GETs of a public one, against Fedpod (ldp-wac) and stock CSS (WebACL + identity provider).
//   node bench/auth/run.js          (knobs: see bench/README.md)

const { loadConfig, readNumber } = require('../lib/config');
const { cssVersion } = require('../lib/css');
const { evaluateChecks, formatChecks, formatNumber, formatRatio, formatTable } = require('../lib/report');
const {
  log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, withTargetSession, skipOnError, logComparison, measureScenario,
} = require('../lib/runner');
const { proofRate } = require('./dpop');
const { prepareAuth } = require('./seed');
const { SCENARIOS } = require('./scenarios');
const { TARGETS } = require('./targets');

const RATIOS = [['fedpod-wac', 'css']];
// Ratios between any two results, "target/scenario" over "target/scenario": the table's columns
// only compare one scenario across targets, the fast-path check compares two scenarios of Fedpod.
const PAIR_RATIOS = [
  { label: 'Fedpod DPoP GET vs stock CSS DPoP GET', numerator: 'fedpod-wac/get-dpop', denominator: 'css/get-dpop' },
  { label: 'Fedpod DPoP GET vs Fedpod anonymous GET', numerator: 'fedpod-wac/get-dpop', denominator: 'fedpod-wac/get-public' },
  { label: 'Fedpod DPoP GET vs Fedpod token GET', numerator: 'fedpod-wac/get-dpop', denominator: 'fedpod-wac/get-bearer' },
  { label: 'Fedpod DPoP PUT vs stock CSS DPoP PUT', numerator: 'fedpod-wac/put-dpop', denominator: 'css/put-dpop' },
  { label: 'Fedpod DPoP PUT vs Fedpod token PUT', numerator: 'fedpod-wac/put-dpop', denominator: 'fedpod-wac/put-bearer' },
  { label: 'Fedpod DPoP PATCH (SPARQL) vs stock CSS', numerator: 'fedpod-wac/patch-sparql-dpop', denominator: 'css/patch-sparql-dpop' },
  { label: 'Fedpod DPoP PATCH (N3) vs stock CSS', numerator: 'fedpod-wac/patch-n3-dpop', denominator: 'css/patch-n3-dpop' },
  { label: 'stock CSS DPoP GET vs stock CSS anonymous GET', numerator: 'css/get-dpop', denominator: 'css/get-public' },
];
const GOALS = [
  { label: 'Fedpod DPoP GET vs stock CSS DPoP GET', numerator: 'fedpod-wac/get-dpop', denominator: 'css/get-dpop', min: 10 },
  { label: 'Fedpod DPoP GET vs Fedpod anonymous GET (fast-path speed)', numerator: 'fedpod-wac/get-dpop',
    denominator: 'fedpod-wac/get-public', min: 0.7 },
  { label: 'Fedpod DPoP PUT vs stock CSS DPoP PUT', numerator: 'fedpod-wac/put-dpop', denominator: 'css/put-dpop', min: 10 },
  { label: 'Fedpod DPoP PATCH (SPARQL Update) vs stock CSS', numerator: 'fedpod-wac/patch-sparql-dpop',
    denominator: 'css/patch-sparql-dpop', min: 10 },
  { label: 'Fedpod DPoP PATCH (N3 Patch) vs stock CSS', numerator: 'fedpod-wac/patch-n3-dpop', denominator: 'css/patch-n3-dpop', min: 10 },
];
const PAIR = 'pair';
const LABEL_WIDTH = 24;
// Settle (up to 30 s) before the warm-up and again before the measured run.
const SETTLE_SECONDS = 60;

// Start, prepare, load and stop one target. Never throws: failures are recorded.
async function benchmarkTarget(target, config) {
  const outcome = { info: {}, results: {} };
  await withTargetSession(target, config, outcome, async (session) => {
    const prepared = await prepareAuth(session);
    outcome.seed = { checks: prepared.checks, token: prepared.token, ...prepared.shape };
    log(`  up at ${session.baseUrl}; user ${session.account.webId}, storage ${session.account.storageUrl}`);
    log(`  ${prepared.token.tokenType} token from ${prepared.token.tokenEndpoint} (expires in ${prepared.token.expiresIn} s); ` +
      `checked: DPoP GET 200, anonymous GET of it ${prepared.checks.anonymousPrivateGet}, replayed proof ` +
      `${prepared.checks.replayedProof}, public GET 200, DPoP PUT ${prepared.checks.dpopPut}, DPoP PATCH ` +
      `${prepared.checks.sparqlPatch} (SPARQL) and ${prepared.checks.n3Patch} (N3)` +
      `${prepared.checks.bearerGet ? ', Fedpod token GET 200' : ''}`);
    log(`  answers: private ${prepared.shape.privateBytes} B, public ${prepared.shape.publicBytes} B ` +
      `(${prepared.shape.turtleBytes} B written)`);
    const rounds = [];
    for (let round = 1; round <= config.rounds; round++) {
      if (config.rounds > 1) {
        log(`  round ${round} of ${config.rounds}`);
      }
      const results = {};
      for (const scenario of SCENARIOS) {
        results[scenario.id] = await skipOnError(scenario.label, async () => {
          const spec = scenario.request(prepared);
          if (scenario.auth === 'dpop') {
            await prepared.tokens.ensureFresh(config.warmup + config.duration + SETTLE_SECONDS);
          }
          return measureScenario(session, { label: scenario.label, spec, labelWidth: LABEL_WIDTH }, config);
        });
      }
      rounds.push(results);
    }
    outcome.results = Object.fromEntries(SCENARIOS.map(({ id }) => [id, combineRounds(rounds.map((results) => results[id]))]));
  });
  return outcome;
}

// The rounds of one scenario as one result: requests over the time of all rounds (so a round that
// ran while the machine was busy weighs what it measured), the worst p99, any round's problems.
function combineRounds(results) {
  if (results.length === 1 || results.some((result) => !result || result.skipped)) {
    return results.find((result) => !result || result.skipped) || results[0];
  }
  const sum = (key) => results.reduce((total, result) => total + (result[key] || 0), 0);
  const problems = results.flatMap((result) => result.problems || []);
  const statusCodes = {};
  for (const result of results) {
    for (const [code, count] of Object.entries(result.statusCodes || {})) {
      statusCodes[code] = (statusCodes[code] || 0) + count;
    }
  }
  return {
    ...results[0],
    reqPerSec: sum('requests') / sum('durationS'),
    latencyMeanMs: sum('latencyMeanMs') / results.length,
    latencyP50Ms: sum('latencyP50Ms') / results.length,
    latencyP99Ms: Math.max(...results.map((result) => result.latencyP99Ms)),
    requests: sum('requests'),
    ok2xx: sum('ok2xx'),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    statusCodes,
    durationS: sum('durationS'),
    rounds: results.map((result) => result.reqPerSec),
    problems,
    flagged: problems.length > 0,
  };
}

// evaluateChecks() compares one scenario of two targets; for a ratio between any two results,
// each "target/scenario" becomes a row of its own holding that result under one scenario id.
function pairView(results) {
  const view = {};
  for (const [targetId, byScenario] of Object.entries(results)) {
    for (const [scenarioId, result] of Object.entries(byScenario || {})) {
      view[`${targetId}/${scenarioId}`] = { [PAIR]: result };
    }
  }
  return view;
}

// numerator/denominator req/s of PAIR_RATIOS; flagged (!) when either side answered errors, as in the table.
function pairRatios(view) {
  return PAIR_RATIOS.map(({ label, numerator, denominator }) => {
    const [top, bottom] = [view[numerator], view[denominator]].map((row) => row && row[PAIR]);
    const usable = top && !top.skipped && bottom && !bottom.skipped && bottom.reqPerSec;
    return { label, numerator, denominator, ratio: usable ? top.reqPerSec / bottom.reqPerSec : null,
      flagged: Boolean(usable && (top.flagged || bottom.flagged)) };
  });
}

function ratioTable(ratios) {
  const rows = ratios.map(({ label, ratio, flagged }) => [label, `${formatRatio(ratio)}${flagged ? ' !' : ''}`]);
  return formatTable([['ratio of req/s', '']], rows);
}

function sizesTable(targets, outcomes) {
  const header = [['answer bytes', ...targets.map((target) => target.label)]];
  const cell = (target, key) => {
    const seed = outcomes[target.id].seed;
    return seed && seed[key] !== null && seed[key] !== undefined ? String(seed[key]) : '-';
  };
  return formatTable(header, [
    ['private resource (a)', ...targets.map((target) => cell(target, 'privateBytes'))],
    ['public resource (c)', ...targets.map((target) => cell(target, 'publicBytes'))],
  ]);
}

function report(config, targets, outcomes, machineAtStart, proofsPerSecond) {
  const title = `\nAuth benchmark: ${config.connections} connections, ${config.duration} s per scenario ` +
    `(after ${config.warmup} s warm-up)${config.rounds > 1 ? ` in each of ${config.rounds} rounds` : ''}, CSS ${cssVersion()} ` +
    'on its file backend\n';
  const results = logComparison(title, { scenarios: SCENARIOS, targets, outcomes, ratios: RATIOS });
  log(`\n${sizesTable(targets, outcomes)}`);
  const view = pairView(results);
  const ratios = pairRatios(view);
  log(`\n${ratioTable(ratios)}`);
  const checks = evaluateChecks(GOALS.map((goal) => ({ ...goal, scenario: PAIR })), view);
  log(`\nTargets (Fedpod with WebACL vs stock CSS with WebACL, and vs its own anonymous GET):\n${formatChecks(checks)}`);
  log(`\nThe load generator signed ${formatNumber(proofsPerSecond)} DPoP proofs/s on one core before the run ` +
    '(one per DPoP request; for the DPoP GET they are signed before its measured run, the others during theirs, ' +
    'on the same cores as the servers).');
  warnIfBusy('\n');
  saveResults('auth', {
    settings: { ...config, cssVersion: cssVersion(), cssBackend: 'file' },
    machineAtStart,
    loadGenerator: { proofsPerSecond },
    scenarios: SCENARIOS.map(({ id, label, kind, auth }) => ({ id, label, kind, auth })),
    targets: targets.map(({ id, label, description }) => ({ id, label, description, ...outcomes[id] })),
    ratios,
    checks,
  });
  return checks;
}

async function main() {
  // Rounds of every scenario, one after the other, on one server: the ratios between scenarios then
  // compare the same moments of a busy machine rather than whichever minute each scenario had.
  const config = { ...loadConfig(), rounds: Math.round(readNumber({ env: 'BENCH_AUTH_ROUNDS', fallback: 1, min: 1, max: 10 })) };
  const { targets, machineAtStart } = startRun(config, { name: 'bench/auth', targets: TARGETS });
  const proofsPerSecond = proofRate();
  log(`DPoP proofs (ES256, node:crypto): ${formatNumber(proofsPerSecond)}/s on one core of the load generator`);
  const outcomes = {};
  for (const target of targets) {
    outcomes[target.id] = await benchmarkTarget(target, config);
  }
  const checks = report(config, targets, outcomes, machineAtStart, proofsPerSecond);
  return strictExitCode(checks);
}

runMain('bench/auth', main);
