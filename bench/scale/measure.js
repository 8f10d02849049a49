'use strict';

// Measuring pieces of bench/scale that bench/lib has no equivalent for: one request at a time
// (a page right after a write, so no cache can answer it), a fixed number of writes over a few
// connections (a timed load would add an unknown number of members to the container being
// grown), resident memory, and bytes on disk.

const fs = require('node:fs');
const path = require('node:path');
const { request } = require('../lib/http');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)];
}

function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

const MIN_SAMPLES = 3;

/**
 * `samples` rounds of: `before()` (untimed, e.g. a POST that moves the container's modification
 * date), then one timed GET of `url` that must answer 200. After MIN_SAMPLES, stops early at
 * `deadline` (epoch ms): a slow server gives fewer samples, not a longer run.
 * Resolves to { kind: 'ms', medianMs, p90Ms, samples, bytes } or throws on a wrong answer.
 */
async function sampleRequests({ url, headers, samples, before, deadline }) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < samples && (times.length < MIN_SAMPLES || Date.now() < deadline); i++) {
    if (before) {
      await before(i);
    }
    const started = performance.now();
    const res = await request(url, { headers, timeoutMs: 120000 });
    const ms = performance.now() - started;
    if (res.status !== 200) {
      throw new Error(`GET ${url} answered ${res.status}: ${res.body.slice(0, 200)}`);
    }
    bytes = Buffer.byteLength(res.body);
    times.push(ms);
  }
  return { kind: 'ms', medianMs: median(times), p90Ms: percentile(times, 0.9), samples: times.length, bytes };
}

/**
 * `count` requests made by `makeRequest(i)` ({ url, method, headers, body }), `connections` at a
 * time, each expected to answer one of `expected`. No new request after `deadline` (epoch ms).
 * Resolves to { done, failed, firstProblem, elapsedMs, reqPerSec, medianMs }.
 */
async function fixedLoad({ count, connections, makeRequest, expected = [201], deadline = Infinity }) {
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstProblem = '';
  const times = [];
  const started = performance.now();
  const worker = async () => {
    while (next < count && Date.now() < deadline) {
      const index = next++;
      const { url, method, headers, body } = makeRequest(index);
      const sent = performance.now();
      try {
        const res = await request(url, { method, headers, body, timeoutMs: 60000 });
        times.push(performance.now() - sent);
        if (expected.includes(res.status)) {
          done += 1;
        } else {
          failed += 1;
          firstProblem = firstProblem || `${method} ${url} answered ${res.status}: ${res.body.slice(0, 200)}`;
        }
      } catch (error) {
        failed += 1;
        firstProblem = firstProblem || error.message;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(connections, count)) }, worker));
  const elapsedMs = performance.now() - started;
  return { done, failed, firstProblem, elapsedMs, reqPerSec: done / (elapsedMs / 1000), medianMs: median(times) };
}


/** Bytes a directory tree takes on disk, as `du` counts them (allocated blocks, not file lengths). */
function diskMb(dir) {
  let bytes = 0;
  const walk = (current) => {
    let entries;
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      try {
        const stat = fs.lstatSync(full);
        bytes += stat.blocks * 512;
        if (entry.isDirectory()) {
          walk(full);
        }
      } catch {
        // Removed while walking (a journal rotated): not counted.
      }
    }
  };
  walk(dir);
  return bytes / 2 ** 20;
}

module.exports = { sampleRequests, fixedLoad, diskMb, median };
