#!/usr/bin/env node
'use strict';

// Soak benchmark: one pod document overwritten over and over (PUT, BENCH_CONNECTIONS connections) on
// `fedpod start --config ldp-wac`, the write rate and the server's resident memory printed per slice of
// writes, then what the heaps hold after a full garbage collection (memory-probe.js). Runs of up to
// 20,000 writes also drive a peer: the same server with the embedded store's rebuilds turned off
// (--store-rebuild-after-removals 0), which is what the store did before it had them; longer runs skip
// it (it slows to some 20 PUT/s) unless BENCH_TARGETS names it. A store that holds its shape keeps the
// figures flat: the goal is the last slice within 10% of the first one after the warm-up slice, for
// rate and memory (the RSS after a full collection when the probe answered; without it, the median of
// the RSS sampled every half second through the slice: one sample is one point of a sawtooth, high
// or low as the last collection happened to fall). The probe's collection at the end of each slice
// also lowers the next slice's RSS; --no-memory-probe leaves the server's garbage collection alone.
//   node bench/soak/run.js [--writes 100000] [--slice 10000] [--no-memory-probe]      (knobs: see bench/README.md)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('../lib/ports');
const { startFedpod } = require('../lib/fedpod');
const { expectStatus, request } = require('../lib/http');
const { getLogDir, residentMb, sleep } = require('../lib/process');
const { loadConfig, readNumber } = require('../lib/config');
const { log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, selectTargets } = require('../lib/runner');

const TARGETS = [
  { id: 'fedpod-wac', label: 'Fedpod-WAC', description: 'fedpod start --config ldp-wac (store rebuilds on, the default)', extraArgs: [] },
  { id: 'fedpod-wac-norebuild', label: 'no-rebuild', description: 'the same with --store-rebuild-after-removals 0 (never rebuilt)',
    extraArgs: ['--store-rebuild-after-removals', '0'] },
];
const FLAT = 0.1;
// The peer without rebuilds takes part by default only in runs this short.
const PEER_MAX_WRITES = 20000;
const PROBE = path.join(__dirname, 'memory-probe.js');
const PROBE_TIMEOUT_MS = 60000;

function flagValue(name) {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
}

function soakConfig() {
  const config = loadConfig();
  const fromFlag = (name, env, fallback, min, max) => {
    const raw = flagValue(name);
    return Math.round(raw === undefined ? readNumber({ env, fallback, min, max }) : Math.min(max, Math.max(min, Number(raw))));
  };
  config.writes = fromFlag('writes', 'BENCH_SOAK_WRITES', 100000, 100, 10000000);
  config.slice = fromFlag('slice', 'BENCH_SOAK_SLICE', Math.max(100, Math.round(config.writes / 10)), 10, config.writes);
  if (!process.env.BENCH_MAX_SECONDS) {
    // The default budget (20 minutes) is too short for a long run: allow 20 PUT/s at the slowest.
    config.maxSeconds = Math.min(7200, Math.max(config.maxSeconds, Math.round(config.writes / 20)));
  }
  config.memoryProbe = !process.argv.includes('--no-memory-probe');
  if (!config.targets && config.writes > PEER_MAX_WRITES) {
    config.targets = ['fedpod-wac'];
  }
  return config;
}

// The ACL of the bench pod, as bench/ldp gives it: its owner may do everything.
function ownerAcl(webId) {
  return `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${webId}>; acl:mode acl:Read, acl:Write, acl:Control; acl:accessTo <./>; acl:default <./>.`;
}

// A small document of 20 triples, all of them new with every write (an edited text, a state saved
// again): each overwrite leaves 20 removed quads behind in the store. (Triples written again unchanged
// leave nothing: Oxigraph revives the removed quad.)
function documentBody(version) {
  const lines = ['@prefix ex: <http://example.org/ns#>.', `<#it> ex:version ${version}.`];
  for (let index = 0; index < 19; index++) {
    lines.push(`<#it> ex:field${index} "value ${index} of version ${version} of a document overwritten many times".`);
  }
  return lines.join('\n');
}

async function startTarget(target, config) {
  const [port, storePort] = [await freePort(), await freePort()];
  const memoryFile = path.join(getLogDir(), `${target.id}-memory.jsonl`);
  const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} --expose-gc --require "${PROBE}"`.trim();
  const fedpod = await startFedpod({ name: target.id, config: 'ldp-wac', port, storePort, timeoutMs: config.startTimeout * 1000,
    extraArgs: target.extraArgs, env: config.memoryProbe ? { NODE_OPTIONS: nodeOptions, FEDPOD_BENCH_MEMORY_FILE: memoryFile } : {} });
  try {
    const signup = await expectStatus(`${fedpod.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', email: 'bench@example.org', password: 'correct horse battery' }) }, [201]);
    const { token, webId } = JSON.parse(signup.body);
    const authorization = `Bearer ${token}`;
    await expectStatus(`${fedpod.baseUrl}pods/bench/.acl`, { method: 'PUT',
      headers: { 'content-type': 'text/turtle', authorization }, body: ownerAcl(webId) }, [201, 204, 205]);
    return { fedpod, authorization, url: `${fedpod.baseUrl}pods/bench/soak.ttl`, memoryFile, samples: 0 };
  } catch (error) {
    await fedpod.stop();
    throw error;
  }
}

function probeLines(memoryFile, sample) {
  try {
    return fs.readFileSync(memoryFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
      .filter((line) => line.sample === sample);
  } catch {
    return [];
  }
}

// Every thread of the server collects its garbage and reports (memory-probe.js); resolves to the heaps'
// and Oxigraph's memory and the RSS after that, or null when the threads did not answer.
async function memoryAfterGc(session) {
  session.samples += 1;
  process.kill(session.fedpod.pid, 'SIGUSR2');
  const deadline = Date.now() + PROBE_TIMEOUT_MS;
  let lines = probeLines(session.memoryFile, session.samples);
  // The main thread and the store's thread.
  while (lines.length < 2 && Date.now() < deadline) {
    await sleep(200);
    lines = probeLines(session.memoryFile, session.samples);
  }
  if (lines.length === 0 || !lines.every((line) => line.collected)) {
    return null;
  }
  const sum = (key) => lines.reduce((total, line) => total + line[key], 0);
  return { threads: lines.length, heapMb: sum('heapUsedMb'), heapTotalMb: sum('heapTotalMb'), wasmMb: sum('wasmMb'),
    rssMb: residentMb(session.fedpod.pid) };
}

const RSS_SAMPLE_MS = 500;

function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
}

// One slice: `count` PUTs over `connections` lanes; resolves to its row (rate, median RSS; then the memory after a full GC).
async function runSlice(session, config, count) {
  let issued = 0;
  const started = performance.now();
  const lane = async () => {
    while (issued < count) {
      issued += 1;
      session.version += 1;
      const res = await request(session.url, { method: 'PUT', timeoutMs: 60000,
        headers: { 'content-type': 'text/turtle', authorization: session.authorization }, body: documentBody(session.version) });
      if (res.status >= 300) {
        session.failed += 1;
        if (session.failed <= 3) {
          log(`  ${session.label}: PUT answered ${res.status}: ${res.body.slice(0, 200)}`);
        }
      }
    }
  };
  // The RSS rises and falls with the garbage V8 has not collected yet: one sample at the slice's end
  // lands anywhere on that saw, so the row gives the median of samples taken through the slice.
  const samples = [];
  const sampler = setInterval(() => samples.push(residentMb(session.fedpod.pid)), RSS_SAMPLE_MS);
  try {
    await Promise.all(Array.from({ length: config.connections }, lane));
  } finally {
    clearInterval(sampler);
  }
  samples.push(residentMb(session.fedpod.pid));
  session.done += count;
  const row = { writes: session.done, perSecond: count / ((performance.now() - started) / 1000), rssMb: median(samples),
    rssEndMb: samples[samples.length - 1], load: os.loadavg()[0] };
  return { ...row, afterGc: config.memoryProbe ? await memoryAfterGc(session) : null };
}

// Rebuild reports the store wrote to the server's log (at most one a minute, each with the longest pause since the last).
function rebuildLines(logFile) {
  try {
    return fs.readFileSync(logFile, 'utf8').split('\n').filter((line) => line.includes('store rebuilt'))
      .map((line) => /Dataset .*/u.exec(line)?.[0].replace(/["}]+$/u, '') ?? line);
  } catch {
    return [];
  }
}

function flatness(slices) {
  // The first slice is the warm-up (JIT, caches, the store's first growth).
  if (slices.length < 3) {
    return null;
  }
  const first = slices[1];
  const last = slices.at(-1);
  const rate = last.perSecond / first.perSecond;
  const rss = last.rssMb / first.rssMb;
  const heap = first.afterGc && last.afterGc ? last.afterGc.heapMb / first.afterGc.heapMb : null;
  const rssAfterGc = first.afterGc && last.afterGc ? last.afterGc.rssMb / first.afterGc.rssMb : null;
  const memory = rssAfterGc ?? rss;
  return { rate, rss, heap, rssAfterGc, flat: rate >= 1 - FLAT && memory <= 1 + FLAT };
}

async function main() {
  const config = soakConfig();
  const { machineAtStart } = startRun(config, { name: 'soak' });
  const targets = selectTargets(TARGETS, config);
  const deadline = Date.now() + config.maxSeconds * 1000 - 60000;
  const outcomes = {};
  const sessions = [];
  try {
    for (const target of targets) {
      log(`== ${target.label}: ${target.description}`);
      try {
        sessions.push({ ...await startTarget(target, config), target, label: target.label, version: 0, done: 0, failed: 0, slices: [] });
      } catch (error) {
        outcomes[target.id] = { unavailable: String(error.message).split('\n')[0] };
        log(`  not available: ${outcomes[target.id].unavailable}`);
      }
    }
    // Slices alternate between the targets, so both see the same machine (other work on it comes and goes).
    log(`\n${config.writes} PUTs of one document per target, ${config.connections} connections, a row every ${config.slice}\n`);
    // MB: the server's median RSS through the slice; after GC: its RSS, its threads' heaps and Oxigraph's wasm memory after a full collection.
    // load: the machine's 1-minute load average at the end of the row (other work moves the rates).
    log(`${'writes'.padStart(8)}  load  ${sessions.map((session) => `${session.label.padStart(12)} PUT/s       MB  after GC: RSS   heap   wasm`)
      .join('  ')}`);
    for (let done = 0; done < config.writes && Date.now() < deadline; done += config.slice) {
      const count = Math.min(config.slice, config.writes - done);
      const rows = [];
      for (const session of sessions) {
        const row = await runSlice(session, config, count);
        session.slices.push(row);
        const gc = row.afterGc;
        rows.push(`${row.perSecond.toFixed(1).padStart(18)}  ${String(Math.round(row.rssMb)).padStart(7)}  ` +
          (gc ? `${String(Math.round(gc.rssMb)).padStart(13)}  ${gc.heapMb.toFixed(1).padStart(5)}  ${gc.wasmMb.toFixed(1).padStart(5)}` :
            `${config.memoryProbe ? '     (no answer)' : ''}`));
      }
      log(`${String(done + count).padStart(8)}  ${os.loadavg()[0].toFixed(1).padStart(4)}  ${rows.join('  ')}`);
    }
  } finally {
    for (const session of sessions) {
      await session.fedpod.stop();
      outcomes[session.target.id] = { slices: session.slices, done: session.done, failed: session.failed,
        flatness: flatness(session.slices), rebuilds: rebuildLines(session.fedpod.logFile), log: session.fedpod.logFile };
    }
  }
  for (const session of sessions) {
    for (const line of outcomes[session.target.id].rebuilds) {
      log(`  ${session.label}: ${line}`);
    }
  }
  log(`\nSoak: last slice over the first after warm-up (slice 2); flat = rate >= ${1 - FLAT}x and memory <= ${1 + FLAT}x` +
    ' (the RSS after a full collection, or the RSS without the probe); after GC: the ratios of the RSS and of the heaps after a full collection\n');
  log('target        writes  first PUT/s  last PUT/s  rate  first MB  last MB  memory  flat  after GC: RSS   heap');
  const checks = [];
  for (const target of targets) {
    const outcome = outcomes[target.id];
    const f = outcome.flatness;
    if (!f) {
      log(`${target.label.padEnd(12)}  n/a (${outcome.unavailable ?? 'fewer than 3 slices'})`);
      checks.push({ label: `${target.label} flat`, met: false });
      continue;
    }
    const [first, last] = [outcome.slices[1], outcome.slices.at(-1)];
    log(`${target.label.padEnd(12)}  ${String(outcome.done).padStart(6)}  ${first.perSecond.toFixed(1).padStart(11)}  ` +
      `${last.perSecond.toFixed(1).padStart(10)}  ${f.rate.toFixed(2).padStart(4)}x  ${String(Math.round(first.rssMb)).padStart(8)}  ` +
      `${String(Math.round(last.rssMb)).padStart(7)}  ${f.rss.toFixed(2).padStart(5)}x  ${(f.flat ? 'yes' : 'NO').padEnd(4)}` +
      `  ${f.rssAfterGc === null ? '  n/a' : `${f.rssAfterGc.toFixed(2)}x`.padStart(13)}  ${f.heap === null ? '  n/a' : `${f.heap.toFixed(2)}x`.padStart(5)}` +
      `${outcome.failed > 0 ? `  ! ${outcome.failed} failed PUTs` : ''}`);
    checks.push({ label: `${target.label} flat`, met: f.flat && outcome.failed === 0 });
  }
  const on = outcomes['fedpod-wac'];
  const off = outcomes['fedpod-wac-norebuild'];
  if (on?.slices?.length && off?.slices?.length) {
    const [a, b] = [on.slices.at(-1), off.slices.at(-1)];
    log(`\nlast slice, rebuilds on / off: ${(a.perSecond / b.perSecond).toFixed(2)}x the PUT rate, ${(a.rssMb / b.rssMb).toFixed(2)}x the memory`);
  }
  warnIfBusy('\n');
  saveResults('soak', { settings: config, machineAtStart, outcomes, checks });
  return strictExitCode(checks);
}

runMain('soak benchmark', main);
