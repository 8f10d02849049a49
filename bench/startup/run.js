#!/usr/bin/env node
'use strict';

// Start-up benchmark: time from spawning the process until it answers HTTP, and
// its memory once idle, for every named Fedpod setup on the embedded store and
// for stock CSS (memory and file backends), in one run, each started
// BENCH_STARTUP_ROUNDS times (fresh data directory each time). Prints medians and
// the ratio to stock CSS; goal: every Fedpod setup ready in at most 2 s and at
// most a third of CSS's.
//   node bench/startup/run.js        (knobs: BENCH_STARTUP_ROUNDS, BENCH_TARGETS)
//
// With BENCH_STARTUP_NOTES=<n> it measures instead restarts of Fedpod `ldp` on a data directory
// holding n notes, seeded once through HTTP (POST /notes/, as a user would): time to the store's
// recovery (snapshot load, log replay), to `ready` and to the server's /readyz, the readiness answers while
// loading, the clean stop, and a restart after kill -9 with BENCH_STARTUP_CRASH_NOTES (1000) notes
// in the log. Goal: `ready` within 5 s with 100,000 notes. BENCH_STARTUP_DATA_DIR keeps the seeded
// directory there for later runs (seeding 100,000 notes takes about half an hour).

const fs = require('node:fs');
const { loadConfig } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { sleep, stopProcess, residentMb } = require('../lib/process');
const path = require('node:path');
const { startFedpod, makeDataDir } = require('../lib/fedpod');
const { seedNotes } = require('./seed');
const { startTimed, dishonestAnswers } = require('./restart');
const { startStockCss, cssVersion } = require('../lib/css');
const { formatTable, formatNumber, formatRatio } = require('../lib/report');
const { log, runMain, startRun, saveResults, strictExitCode } = require('../lib/runner');

const ROUNDS = Math.min(Math.max(Number(process.env.BENCH_STARTUP_ROUNDS || 3), 1), 20);
const IDLE_MS = 2000;
const GOAL_MS = 2000;
const GOAL_RATIO = 1 / 3;
const NOTES = Math.min(Math.max(Math.floor(Number(process.env.BENCH_STARTUP_NOTES || 0)), 0), 1000000);
const CRASH_NOTES = Math.min(Math.max(Math.floor(Number(process.env.BENCH_STARTUP_CRASH_NOTES ?? 1000)), 0), 100000);
const SEED_CONCURRENCY = 8;
const DATA_GOAL_MS = 5000;
/** In a kept data directory: how many notes it was seeded with. */
const SEED_MARKER = 'bench-startup-notes.json';

const TARGETS = [
  { id: 'fedpod-ldp', label: 'Fedpod ldp', kind: 'fedpod', config: 'ldp' },
  { id: 'fedpod-ldp-sparql', label: 'Fedpod ldp-sparql', kind: 'fedpod', config: 'ldp-sparql' },
  { id: 'fedpod-ldp-wac', label: 'Fedpod ldp-wac', kind: 'fedpod', config: 'ldp-wac' },
  { id: 'fedpod-activitypub', label: 'Fedpod activitypub', kind: 'fedpod', config: 'activitypub' },
  { id: 'css-memory', label: 'stock CSS (memory)', kind: 'css', config: 'default' },
  { id: 'css-file', label: 'stock CSS (file)', kind: 'css', config: 'file' },
];


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

/** A data directory with at least NOTES notes: the kept one if it has them, else seeded now (then stopped cleanly). */
async function seededDataDir(config) {
  const kept = process.env.BENCH_STARTUP_DATA_DIR ? path.resolve(process.env.BENCH_STARTUP_DATA_DIR) : null;
  const marker = kept ? path.join(kept, SEED_MARKER) : null;
  if (marker && fs.existsSync(marker) && JSON.parse(fs.readFileSync(marker, 'utf8')).notes >= NOTES) {
    log(`reusing ${kept} (${JSON.parse(fs.readFileSync(marker, 'utf8')).notes} notes)`);
    return kept;
  }
  const dataDir = kept || makeDataDir('startup-notes');
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const server = await startFedpod({ name: 'seed', config: 'ldp', port, storePort: await freePort(), dataDir,
    timeoutMs: config.startTimeout * 1000 });
  const started = Date.now();
  log(`seeding ${NOTES} notes through POST /notes/ (${SEED_CONCURRENCY} at a time) into ${dataDir}`);
  await seedNotes(server.baseUrl, { count: NOTES, concurrency: SEED_CONCURRENCY, progressEvery: Math.max(1000, Math.ceil(NOTES / 10)),
    onProgress: (done) => log(`  ${done} notes, ${formatNumber((Date.now() - started) / 1000, 0)} s`) });
  // A clean stop folds the log into a snapshot; give it time (the default stop kills after 5 s).
  await stopProcess(server.pid, 120000);
  if (marker) {
    fs.writeFileSync(marker, `${JSON.stringify({ notes: NOTES })}\n`);
  }
  return dataDir;
}

function storeFilesMb(dataDir) {
  const datasets = path.join(dataDir, 'store', 'datasets');
  let bytes = 0;
  for (const dataset of fs.existsSync(datasets) ? fs.readdirSync(datasets) : []) {
    for (const file of fs.readdirSync(path.join(datasets, dataset))) {
      bytes += fs.statSync(path.join(datasets, dataset, file)).size;
    }
  }
  return bytes / 1024 / 1024;
}

function describeRestart(label, run, stopMs) {
  const recovery = run.timings.recovery;
  const split = recovery ?
    `store: ${recovery.quads} quads, snapshot ${recovery.snapshotMs} ms, ${recovery.records} records replayed in ${recovery.replayMs} ms ` +
    `(recovered at ${recovery.atMs} ms); ` : '';
  const refused = `${run.answers.filter((answer) => !answer.fromServer).length} x 503 while starting`;
  const readyz = run.timings.readyz.status === 200 ? '200' : `${run.timings.readyz.status} (failing: ${run.timings.readyz.failing.join(', ')})`;
  log(`  ${label}: ${split}ready line ${run.timings.readyLineMs} ms (CPU ${run.timings.readyCpuMs} ms, ` +
    `busiest threads ${(run.timings.readyThreadsCpuMs || []).join(' + ')} ms), server's /readyz ${readyz} at ${run.timings.readyzMs} ms; ${refused}` +
    `${stopMs === undefined ? '' : `; clean stop ${stopMs} ms`}`);
}

async function mainWithData() {
  const config = loadConfig();
  const { machineAtStart } = startRun(config, { name: 'startup' });
  log(`start-up with data: Fedpod ldp on ${NOTES} notes, ${ROUNDS} clean restart(s)` +
    `${CRASH_NOTES > 0 ? `, then one restart after kill -9 with ${CRASH_NOTES} more notes in the log` : ''}`);
  const dataDir = await seededDataDir(config);
  log(`store files: ${formatNumber(storeFilesMb(dataDir))} MB`);
  const timeoutMs = config.startTimeout * 1000;
  const restarts = [];
  let dishonest = 0;
  for (let round = 1; round <= ROUNDS; round += 1) {
    const run = await startTimed({ dataDir, port: await freePort(), storePort: await freePort(), timeoutMs });
    await sleep(IDLE_MS);
    const stopMs = await run.stop('SIGTERM');
    dishonest += dishonestAnswers(run.answers).length;
    describeRestart(`clean restart #${round}`, run, stopMs);
    restarts.push({ ...run.timings, answers: run.answers.length, stopMs });
  }
  let crash = null;
  if (CRASH_NOTES > 0) {
    const port = await freePort();
    const run = await startTimed({ dataDir, port, storePort: await freePort(), timeoutMs });
    await seedNotes(`http://localhost:${port}/`, { count: CRASH_NOTES, concurrency: SEED_CONCURRENCY, progressEvery: CRASH_NOTES });
    await run.stop('SIGKILL');
    const after = await startTimed({ dataDir, port: await freePort(), storePort: await freePort(), timeoutMs });
    const stopMs = await after.stop('SIGTERM');
    dishonest += dishonestAnswers(after.answers).length;
    describeRestart(`restart after kill -9 (${CRASH_NOTES} notes in the log)`, after, stopMs);
    crash = { ...after.timings, stopMs };
  }
  const readyLines = restarts.map((restart) => restart.readyLineMs);
  const medianReady = median(readyLines);
  const cpu = restarts.map((restart) => restart.readyCpuMs);
  log(`\nready line: median ${medianReady} ms, range ${Math.min(...readyLines)}-${Math.max(...readyLines)} ms over ${ROUNDS} clean restart(s); ` +
    `CPU time to ready: median ${median(cpu)} ms in all, ${median(restarts.map((restart) => (restart.readyThreadsCpuMs || [null])[0]))} ms ` +
    'on the busiest thread (about the wall time on free cores)');
  const checks = [
    { id: 'ready-with-data', met: medianReady <= DATA_GOAL_MS },
    { id: 'readiness-honest', met: dishonest === 0 },
  ];
  log(`goal: ready in <= ${DATA_GOAL_MS} ms with ${NOTES} notes: ${checks[0].met ? 'met' : 'NOT met'}`);
  log(`goal: every /readyz answer before the server's own is a 503: ${checks[1].met ? 'met' : `NOT met (${dishonest} other answers)`}`);
  saveResults('startup-data', { machineAtStart, notes: NOTES, storeFilesMb: storeFilesMb(dataDir), restarts, crash, checks });
  return strictExitCode(checks);
}

runMain('bench/startup', NOTES > 0 ? mainWithData : main);
