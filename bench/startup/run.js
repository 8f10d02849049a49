#!/usr/bin/env node
'use strict';

// Start-up benchmark: time from spawning the process until it answers HTTP, and
// its memory once idle, for every named Fedpod setup on the embedded store and
// for stock CSS (memory and file backends), in one run, each started
// BENCH_STARTUP_ROUNDS times (fresh data directory each time). Prints medians and
// the ratio to stock CSS; goal: every Fedpod setup ready in at most 2 s and at
// most a third of CSS's.
//   node bench/startup/run.js        (knobs: BENCH_STARTUP_ROUNDS, BENCH_TARGETS)

const fs = require('node:fs');
const { loadConfig } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { sleep } = require('../lib/process');
const { startFedpod, makeDataDir } = require('../lib/fedpod');
const { startStockCss, cssVersion } = require('../lib/css');
const { formatTable, formatNumber, formatRatio } = require('../lib/report');
const { log, runMain, startRun, saveResults, strictExitCode } = require('../lib/runner');

const ROUNDS = Math.min(Math.max(Number(process.env.BENCH_STARTUP_ROUNDS || 3), 1), 20);
const IDLE_MS = 2000;
const GOAL_MS = 2000;
const GOAL_RATIO = 1 / 3;

const TARGETS = [
  { id: 'fedpod-ldp', label: 'Fedpod ldp', kind: 'fedpod', config: 'ldp' },
  { id: 'fedpod-ldp-sparql', label: 'Fedpod ldp-sparql', kind: 'fedpod', config: 'ldp-sparql' },
  { id: 'fedpod-ldp-wac', label: 'Fedpod ldp-wac', kind: 'fedpod', config: 'ldp-wac' },
  { id: 'fedpod-activitypub', label: 'Fedpod activitypub', kind: 'fedpod', config: 'activitypub' },
  { id: 'css-memory', label: 'stock CSS (memory)', kind: 'css', config: 'default' },
  { id: 'css-file', label: 'stock CSS (file)', kind: 'css', config: 'file' },
];

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status; Linux). */
function residentMb(pid) {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/u)[1]) / 1024 : null;
  } catch {
    return null;
  }
}

function median(values) {
  const sorted = values.filter((value) => value !== null).sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)];
}

async function startOnce(target, round) {
  const port = await freePort();
  const name = `${target.id}-${round}`;
  if (target.kind === 'fedpod') {
    return startFedpod({ name, config: target.config, port, storePort: await freePort(), dataDir: makeDataDir(name), timeoutMs: 120000 });
  }
  return startStockCss({ name, config: target.config, port, timeoutMs: 120000 });
}

async function measure(target) {
  const startMs = [];
  const memory = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const handle = await startOnce(target, round);
    await sleep(IDLE_MS);
    startMs.push(handle.startMs);
    memory.push(residentMb(handle.pid));
    log(`  ${target.label} #${round}: ready in ${handle.startMs} ms, ${formatNumber(memory.at(-1))} MB idle`);
    await handle.stop();
  }
  return { startMs, memoryMb: memory, medianStartMs: median(startMs), medianMemoryMb: median(memory) };
}

async function main() {
  const config = loadConfig();
  const { targets, machineAtStart } = startRun(config, { name: 'startup', targets: TARGETS });
  log(`start-up: ${ROUNDS} round(s) per target, stock CSS ${cssVersion()}; ready = first HTTP answer (Fedpod: /healthz 200; CSS: any answer below 500)`);
  const results = {};
  for (const target of targets) {
    log(`\n== ${target.label}`);
    results[target.id] = await measure(target);
  }
  const css = results['css-memory'] || results['css-file'];
  const rows = targets.map((target) => {
    const result = results[target.id];
    return [ target.label, formatNumber(result.medianStartMs, 0), formatNumber(result.medianMemoryMb),
      target.kind === 'fedpod' && css ? formatRatio(result.medianStartMs / css.medianStartMs) : '' ];
  });
  log(`\n${formatTable([[ 'target', 'ready ms (median)', 'idle MB', 'vs stock CSS (memory)' ]], rows)}`);
  const checks = targets.filter((target) => target.kind === 'fedpod').map((target) => {
    const result = results[target.id];
    const met = result.medianStartMs <= GOAL_MS && (!css || result.medianStartMs <= css.medianStartMs * GOAL_RATIO);
    log(`goal ${target.label}: ready in <= ${GOAL_MS} ms and <= 1/3 of stock CSS: ${met ? 'met' : 'NOT met'}`);
    return { id: target.id, met };
  });
  saveResults('startup', { machineAtStart, rounds: ROUNDS, results, checks });
  return strictExitCode(checks);
}

runMain('bench/startup', main);
