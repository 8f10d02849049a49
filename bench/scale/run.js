#!/usr/bin/env node
'use strict';

// Scale benchmark: how Fedpod's costs grow with the data it holds. One Fedpod (ldp setup) and one
// stock CSS (file backend) are each grown through their HTTP API to every size of
// BENCH_SCALE_SIZES (default 1000,10000; --large adds 100000), and measured at each: GET of a note,
// first and last container page (after a write and repeated), POST, start-up, memory, disk. A
// Fedpod activitypub setup is grown the same way (signed Follows, outbox POSTs) for its collection
// pages. Prints the costs, their growth over the smallest size, Fedpod vs CSS, and the goals.
//   node bench/scale/run.js [--large]        (knobs: see bench/README.md)

const { cssVersion } = require('../lib/css');
const { log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, selectTargets } = require('../lib/runner');
const { loadScaleConfig } = require('./config');
const { LDP_TARGETS } = require('./ldp-targets');
const { runLdpTarget } = require('./ldp');
const { runCollections, COLLECTIONS_TARGET } = require('./collections');
const { ROWS, valuesTable, growthTable, evaluateGoals, formatGoals, sizeLabel } = require('./table');

// Time kept back from seeding for the measurements and the report of the sizes already grown.
const RESERVE_MS = 90000;

const GOALS = [
  { label: 'Fedpod container first page after a write', row: 'first-uncached', maxGrowth: 1.5, atSize: 100000 },
  { label: 'Fedpod followers page', row: 'followers', maxGrowth: 1.5, atSize: 100000 },
  { label: 'Fedpod outbox first page', row: 'outbox', maxGrowth: 1.5, atSize: 100000 },
  { label: 'Fedpod start-up to ready', row: 'startup', maxMs: 5000, atSize: 100000 },
];

function report(config, outcomes, machineAtStart) {
  const { sizes } = config;
  // The collection rows are Fedpod's too: its column shows both setups' results (a copy: the JSON
  // keeps each setup's own).
  const fedpod = { id: 'fedpod', label: 'Fedpod', ...outcomes.fedpod, sizes: { ...outcomes.fedpod && outcomes.fedpod.sizes } };
  for (const size of sizes) {
    const ap = outcomes[COLLECTIONS_TARGET.id] && outcomes[COLLECTIONS_TARGET.id].sizes[size];
    if (ap && ap.rows) {
      fedpod.sizes[size] = fedpod.sizes[size] && fedpod.sizes[size].rows ?
        { ...fedpod.sizes[size], rows: { ...fedpod.sizes[size].rows, ...ap.rows } } :
        { ...ap, rows: ap.rows };
    }
  }
  const targets = [fedpod];
  if (outcomes.css) {
    targets.push({ id: 'css', label: 'CSS', ...outcomes.css });
  }
  const rows = ROWS.filter((row) => config.parts.includes(row.part));
  log(`\nScale benchmark: sizes ${sizes.map(sizeLabel).join(', ')} notes (collections: ${config.followersPerSize} followers ` +
    `and ${config.outboxPerSize} outbox activities per note), ${config.connections} connections, ${config.duration} s per ` +
    `load row (after ${config.warmup} s warm-up), ${config.samples} single requests per "after a write" row, CSS ${cssVersion()}\n`);
  log(valuesTable({ sizes, targets, rows }));
  log(`\nGrowth (cost at N over cost at ${sizeLabel(sizes[0])}; above 1x it got dearer; req/s counts as ms per request) ` +
    'and Fedpod vs CSS (CSS\'s cost over Fedpod\'s; above 1x Fedpod is cheaper):\n');
  log(growthTable({ sizes, targets, fedpodId: 'fedpod', cssId: 'css', rows }));
  for (const target of targets) {
    for (const size of sizes) {
      const entry = target.sizes && target.sizes[size];
      if (entry && entry.skipped) {
        log(`  ${target.label} ${sizeLabel(size)}: n/a (time bound): ${entry.skipped}`);
      }
    }
    if (target.unavailable) {
      log(`  ${target.label}: not available: ${target.unavailable}`);
    }
  }
  const ap = outcomes[COLLECTIONS_TARGET.id];
  if (ap && ap.unavailable) {
    log(`  Fedpod collections: not available: ${ap.unavailable}`);
  }
  log('  CSS: no paging (its first and last page are the whole container), no page cache, no ActivityPub collections.');
  log('  "after a write": one POST, then one timed GET, repeated; every write drops Fedpod\'s cached pages of the container.');
  const checks = evaluateGoals({ sizes, target: fedpod, goals: GOALS.filter((goal) =>
    ROWS.find((row) => row.id === goal.row && config.parts.includes(row.part))) });
  log(`\nTargets (issue "Scale"):\n${formatGoals(checks)}`);
  warnIfBusy('\n');
  saveResults('scale', { settings: { ...config, cssVersion: cssVersion() }, machineAtStart, outcomes, checks });
  return checks;
}

async function main() {
  const config = loadScaleConfig();
  const known = [...LDP_TARGETS, COLLECTIONS_TARGET];
  const { machineAtStart } = startRun(config, { name: 'bench/scale' });
  const targets = selectTargets(known, config);
  const runEnd = Date.now() + config.maxSeconds * 1000 - RESERVE_MS;
  log(`bench/scale: sizes ${config.sizes.join(', ')}, parts ${config.parts.join(',')}, targets ` +
    `${targets.map((target) => target.id).join(',')}; bounded by BENCH_MAX_SECONDS=${config.maxSeconds}`);
  const outcomes = {};
  // CSS last: it is the slowest to grow, and the first to be cut by the time bound.
  const ordered = ['fedpod', COLLECTIONS_TARGET.id, 'css'].map((id) => targets.find((target) => target.id === id)).filter(Boolean);
  for (const target of ordered) {
    if (target.id === COLLECTIONS_TARGET.id) {
      if (config.parts.includes('collections')) {
        outcomes[target.id] = await runCollections(config, () => runEnd);
      }
    } else if (config.parts.includes('ldp')) {
      // CSS gets BENCH_SCALE_CSS_SEED_SECONDS of seeding in all, whatever is left of the run.
      const seedDeadline = (state) => Math.min(runEnd,
        target.id === 'css' ? Date.now() + config.cssSeedSeconds * 1000 - state.seedMs : Infinity);
      outcomes[target.id] = await runLdpTarget(target, config, { seedDeadline, runEnd });
    }
  }
  const checks = report(config, outcomes, machineAtStart);
  return strictExitCode(checks);
}

runMain('bench/scale', main);
