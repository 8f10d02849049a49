'use strict';

// Where a .cpuprofile's time went, optionally within a time window: self time
// by source area (Fedpod's dist/ folders, each node_modules package, node:
// internals, GC, idle), self time by function, and time charged to the
// innermost Fedpod function on the stack (what Fedpod code it was spent for).
//
//   node bench/federation/lib/profile-summary.js <file.cpuprofile> [top=25] [fromUs toUs]
//
// Profile timestamps are CLOCK_MONOTONIC microseconds, the clock of
// process.hrtime() in every process of this machine, so run.js can cut a
// profile of Fedpod into the windows of its own measurements (it records
// them as `window` in its JSON results). Used by run.js when Fedpod is run
// with BENCH_FED_FEDPOD_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>".

const fs = require('node:fs');

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)']);

function area(url) {
  if (!url) {
    return '(native / runtime)';
  }
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) {
    return modules[1];
  }
  if (url.startsWith('node:')) {
    return 'node: internals';
  }
  const dist = /\/dist\/(.*)$/.exec(url);
  if (dist) {
    return `fedpod ${dist[1].split('/').slice(0, -1).join('/') || '.'}`;
  }
  return url.replace(/^file:\/\//, '');
}

function isFedpodFrame(url) {
  return /\/dist\//.test(url) && !/node_modules/.test(url);
}

function loadProfile(file) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) {
    for (const child of node.children || []) {
      parent.set(child, node.id);
    }
  }
  return { file, profile, byId, parent };
}

function sortedEntries(map, totalUs) {
  return [...map.entries()].sort((a, b) => b[1] - a[1]).map(([key, us]) => ({ key, ms: us / 1000, share: us / totalUs }));
}

/** Time by area, function and innermost Fedpod function, for samples in [fromUs, toUs]. */
function summarize(loaded, { fromUs = -Infinity, toUs = Infinity } = {}) {
  const { profile, byId, parent } = loaded;
  const selfUs = new Map();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] || 0;
    if (at >= fromUs && at <= toUs) {
      // A sample stands for the interval up to the next one.
      const next = profile.timeDeltas[i + 1] || 0;
      selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) || 0) + next);
    }
  }
  const totalUs = [...selfUs.values()].reduce((sum, us) => sum + us, 0) || 1;
  const byArea = new Map();
  const byFunction = new Map();
  const byOwner = new Map();
  const ownerCache = new Map();
  const ownerOf = (id) => {
    if (!ownerCache.has(id)) {
      let owner = null;
      for (let current = id; current !== undefined && owner === null; current = parent.get(current)) {
        const { callFrame } = byId.get(current);
        if (isFedpodFrame(callFrame.url)) {
          owner = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/dist/').pop()}:${callFrame.lineNumber + 1}`;
        }
      }
      ownerCache.set(id, owner);
    }
    return ownerCache.get(id);
  };
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName || '(anonymous)';
    const special = SPECIAL.has(name);
    const areaKey = special ? name : area(callFrame.url);
    byArea.set(areaKey, (byArea.get(areaKey) || 0) + us);
    const functionKey = special || !callFrame.url ? name : `${name} ${area(callFrame.url)}:${callFrame.lineNumber + 1}`;
    byFunction.set(functionKey, (byFunction.get(functionKey) || 0) + us);
    const ownerKey = special ? name : ownerOf(id) || '(no Fedpod frame: I/O callbacks, TLS, timers)';
    byOwner.set(ownerKey, (byOwner.get(ownerKey) || 0) + us);
  }
  return {
    sampledMs: totalUs / 1000,
    byArea: sortedEntries(byArea, totalUs),
    byFunction: sortedEntries(byFunction, totalUs),
    byFedpodFunction: sortedEntries(byOwner, totalUs),
  };
}

function formatEntries(entries, top, indent = '') {
  return entries.slice(0, top).map((entry) =>
    `${indent}${(100 * entry.share).toFixed(1).padStart(5)} %  ${entry.ms.toFixed(0).padStart(7)} ms  ${entry.key}`).join('\n');
}

function formatSummary(summary, top) {
  return [
    `${summary.sampledMs.toFixed(0)} ms sampled`,
    '\nself time by area', formatEntries(summary.byArea, top),
    '\nself time by function', formatEntries(summary.byFunction, top),
    '\ntime by innermost Fedpod function on the stack (callees included)', formatEntries(summary.byFedpodFunction, top),
  ].join('\n');
}

if (require.main === module) {
  const [file, top = '25', fromUs, toUs] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/federation/lib/profile-summary.js <file.cpuprofile> [top] [fromUs toUs]\n');
    process.exit(2);
  }
  const window = fromUs && toUs ? { fromUs: Number(fromUs), toUs: Number(toUs) } : {};
  process.stdout.write(`${file}: ${formatSummary(summarize(loadProfile(file), window), Number(top))}\n`);
}

module.exports = { loadProfile, summarize, formatSummary, formatEntries };
