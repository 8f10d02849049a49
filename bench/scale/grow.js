'use strict';

// Growing a server through its public HTTP API only (never by writing into its store), so the bench
// measures whatever shape the server gives its containers and collections.

const { fixedLoad } = require('./measure');
const { log } = require('../lib/runner');

const CHUNK = 500;
const PROGRESS_EVERY_MS = 15000;

/**
 * Send `count` writes made by `makeRequest(i)` in chunks of CHUNK, `connections` at a time. After each
 * chunk the rate so far projects the rest: when it would end after `deadline` (epoch ms), growing
 * stops. Resolves to { done, ms, perSec, stopped: '' | reason }; throws on a refused write.
 */
async function grow({ label, count, connections, makeRequest, deadline, expected = [201] }) {
  const started = Date.now();
  let done = 0;
  let lastProgress = started;
  while (done < count) {
    const size = Math.min(CHUNK, count - done);
    const offset = done;
    const result = await fixedLoad({ count: size, connections, expected, deadline,
      makeRequest: (i) => makeRequest(offset + i) });
    done += result.done;
    if (result.failed > 0) {
      throw new Error(`${label}: ${result.failed} of ${size} writes failed: ${result.firstProblem}`);
    }
    const elapsed = Date.now() - started;
    const perSec = done / Math.max(elapsed, 1) * 1000;
    const projectedEnd = Date.now() + (count - done) / Math.max(perSec, 0.001) * 1000;
    if (done < count && (result.done < size || projectedEnd > deadline)) {
      return { done, ms: elapsed, perSec,
        stopped: `${label}: ${done} of ${count} written at ${perSec.toFixed(0)}/s; the rest would take ` +
          `${Math.round((count - done) / perSec)} s more, past the time bound` };
    }
    if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
      lastProgress = Date.now();
      log(`    ${label}: ${done}/${count} (${perSec.toFixed(0)}/s)`);
    }
  }
  const ms = Date.now() - started;
  return { done, ms, perSec: done / Math.max(ms, 1) * 1000, stopped: '' };
}

module.exports = { grow };
