#!/usr/bin/env node
'use strict';
// npm run bench:check: the quick benchmarks, one after the other, each with short loads, then one
// table of every ratio goal they check and whether it was met. Exits 1 when a goal is missed or
// could not be checked (a peer that did not start, errors under load), 2 when a benchmark failed to
// run. For a person to run before a release on an otherwise idle machine: timings never go in tests.
//
// bench/scale (it seeds stores to 10,000 and more) and bench/soak are not quick: run them on their own.

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { formatTable, formatRatio, RESULTS_DIR } = require('./lib/report');

// Short loads: enough for a ratio to settle on 2 cores, little enough for the whole check to take
// about five minutes. Each can be overridden from the environment as usual.
const QUICK = { BENCH_DURATION: '3', BENCH_WARMUP: '1' };
const BENCHES = [
  { name: 'ldp', script: 'ldp/run.js', env: QUICK },
  { name: 'actors', script: 'actors/run.js', env: QUICK },
  { name: 'auth', script: 'auth/run.js', env: QUICK },
  { name: 'media', script: 'media/run.js', env: { ...QUICK, BENCH_MEDIA_UPLOADS: '8' } },
  {
    name: 'federation',
    script: 'federation/run.js',
    env: { BENCH_FED_POSTS: '2', BENCH_FED_INGEST: '1000', BENCH_FED_INGEST_WARMUP: '500', BENCH_FED_INGEST_SECONDS: '20',
      BENCH_FED_PARTS: 'fanout,ingest' },
  },
];

function selected() {
  const only = (process.env.BENCH_CHECK ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = only.filter((name) => !BENCHES.some((bench) => bench.name === name));
  if (unknown.length > 0) {
    throw new Error(`BENCH_CHECK names no such benchmark: ${unknown.join(', ')} (known: ${BENCHES.map((b) => b.name).join(', ')})`);
  }
  return only.length > 0 ? BENCHES.filter((bench) => only.includes(bench.name)) : BENCHES;
}

/** Runs one benchmark, its output in a log file; resolves to { code, resultsFile, log }. */
function run(bench) {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = path.join(RESULTS_DIR, `check-${bench.name}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const out = fs.createWriteStream(logFile);
  // The benchmark's own settings win over the quick ones when the caller set them.
  const env = { ...bench.env, ...process.env, BENCH_STRICT: '1' };
  const child = spawn(process.execPath, [path.join(__dirname, bench.script)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let resultsFile;
  let tail = '';
  child.stdout.on('data', (chunk) => {
    out.write(chunk);
    tail = (tail + chunk.toString()).slice(-4000);
    const found = /JSON results: (\S+)/u.exec(tail);
    resultsFile = found ? found[1] : resultsFile;
  });
  child.stderr.on('data', (chunk) => {
    out.write(chunk);
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      out.end();
      resolve({ code, resultsFile, log: logFile });
    });
  });
}

/** The checks of a results file, in one shape whatever benchmark wrote them. */
function checksOf(file) {
  const document = JSON.parse(fs.readFileSync(file, 'utf8'));
  return (document.checks ?? []).map((check) => ({
    label: check.label,
    goal: check.goal ?? `>= ${check.min}x`,
    measured: check.measured ?? (typeof check.ratio === 'number' ? formatRatio(check.ratio) : ''),
    met: check.met,
    reason: check.reason ?? '',
  }));
}

async function main() {
  const started = Date.now();
  const rows = [];
  let failed = false;
  for (const bench of selected()) {
    const benchStarted = Date.now();
    process.stdout.write(`bench/${bench.name} ... `);
    const result = await run(bench);
    const seconds = Math.round((Date.now() - benchStarted) / 1000);
    // 0: every goal met; 1: a goal missed (BENCH_STRICT); anything else: the run itself failed.
    if (!result.resultsFile || (result.code !== 0 && result.code !== 1)) {
      failed = true;
      process.stdout.write(`FAILED (exit ${result.code}, ${seconds} s); its output: ${result.log}\n`);
      rows.push([bench.name, '(the run failed)', '', '', 'FAILED']);
      continue;
    }
    const checks = checksOf(result.resultsFile);
    process.stdout.write(`${checks.filter((check) => check.met === true).length}/${checks.length} goals met (${seconds} s)\n`);
    for (const check of checks) {
      const verdict = check.met === true ? 'met' : check.met === false ? 'NOT MET' : 'UNKNOWN';
      rows.push([bench.name, check.label, check.goal, check.measured || check.reason, verdict]);
    }
  }
  process.stdout.write(`\n${formatTable([['bench', 'goal', 'target', 'measured', '']], rows)}\n`);
  const missed = rows.filter((row) => row[4] !== 'met').length;
  process.stdout.write(`\n${missed === 0 ? 'Every goal met' : `${missed} of ${rows.length} goals not met or not checked`} ` +
    `in ${Math.round((Date.now() - started) / 1000)} s; logs and JSON results in ${RESULTS_DIR}\n`);
  return failed ? 2 : missed > 0 ? 1 : 0;
}

main().then((code) => {
  process.exitCode = code;
}, (error) => {
  process.stderr.write(`bench:check failed: ${error.stack || error}\n`);
  process.exitCode = 2;
});
