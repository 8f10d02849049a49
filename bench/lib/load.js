'use strict';

const autocannon = require('autocannon');
const { connectionFor, request } = require('./http');

const REQUEST_TIMEOUT_S = 10;
const SETTLE_BUDGET_MS = 30000;
const SETTLE_RETRY_MS = 200;

function runAutocannon(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

// One request of `scenario` as plain values (request number `index`): url, method, headers, body.
// makeHeaders(index, url) adds headers to that one request (a DPoP proof is single use).
function requestAt(scenario, index) {
  const url = scenario.makeUrl ? scenario.makeUrl(index) : scenario.url;
  const headers = { ...scenario.headers, ...scenario.makeHeaders ? scenario.makeHeaders(index, url) : {} };
  const body = scenario.makeBody ? scenario.makeBody(index) : scenario.body;
  return { url, method: scenario.method || 'GET', headers, body };
}

// autocannon options for one scenario. Traffic goes to 127.0.0.1 with the
// scenario URL's Host header, so servers see the IRIs they expect.
function autocannonOptions(scenario, { connections, duration }) {
  const target = connectionFor(scenario.url);
  const options = {
    url: `http://${target.address}:${target.port}`,
    method: scenario.method || 'GET',
    headers: { host: target.hostHeader, ...scenario.headers },
    connections,
    duration,
    timeout: REQUEST_TIMEOUT_S,
    requests: [{ path: target.path }],
  };
  if (scenario.body !== undefined) {
    options.body = scenario.body;
  }
  if (scenario.makeBody || scenario.makeUrl || scenario.makeHeaders) {
    // A fresh body, target or header per request, so servers cannot short-cut identical writes
    // (setupRequest is synchronous: what it builds must be).
    let counter = 0;
    options.requests[0].setupRequest = (req) => {
      const { url, headers, body } = requestAt(scenario, counter++);
      return {
        ...req,
        path: connectionFor(url).path,
        headers: { ...req.headers, ...headers },
        ...scenario.makeBody ? { body } : {},
      };
    };
  }
  return options;
}

// The numbers we keep from autocannon's much larger result object.
function summarize(result) {
  const statusCodes = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats || {})) {
    statusCodes[code] = stats.count;
  }
  const summary = {
    reqPerSec: result.requests.average,
    latencyMeanMs: result.latency.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationS: result.duration,
  };
  summary.problems = describeProblems(summary);
  summary.flagged = summary.problems.length > 0;
  return summary;
}

// Why a measurement cannot be trusted as "fast": a server answering errors
// quickly is not a fast server.
function describeProblems(summary) {
  const problems = [];
  if (summary.requests === 0) {
    problems.push('no responses');
  }
  if (summary.non2xx > 0) {
    const codes = Object.keys(summary.statusCodes).filter((code) => !code.startsWith('2'));
    problems.push(`${summary.non2xx} non-2xx (${codes.join(',')})`);
  }
  if (summary.errors > 0) {
    problems.push(`${summary.errors} errors (${summary.timeouts} timeouts)`);
  }
  return problems;
}

// autocannon ends a run by destroying its sockets, aborting requests in
// flight. Some servers (CSS) then keep those requests' resource locks until
// the locks expire, which would stall the next run. So before each run, send
// one request of the scenario and wait until it succeeds. Resolves to the ms waited.
async function settle(scenario) {
  const started = Date.now();
  let attempt = 0;
  let lastProblem = '';
  while (Date.now() - started < SETTLE_BUDGET_MS) {
    const { url, method, headers, body } = requestAt(scenario, `settle-${attempt++}`);
    try {
      const res = await request(url, { method, headers, body, timeoutMs: SETTLE_BUDGET_MS });
      if (res.status >= 200 && res.status < 300) {
        return Date.now() - started;
      }
      lastProblem = `status ${res.status}`;
    } catch (error) {
      lastProblem = error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_RETRY_MS));
  }
  throw new Error(`server did not settle within ${SETTLE_BUDGET_MS} ms (${lastProblem})`);
}

/**
 * Load one scenario: a warm-up run (discarded) then the measured run, each
 * preceded by settle().
 * scenario: { url | makeUrl(counter), method, headers, makeHeaders(counter, url), body | makeBody(counter),
 *   beforeMeasure({ warmup, seconds }) (awaited after the warm-up), afterMeasure() (a note for the report) }
 * settings: { connections, duration, warmup } (seconds)
 */
async function measure(scenario, settings) {
  let settleMs = 0;
  let warmup;
  if (settings.warmup > 0) {
    settleMs += await settle(scenario);
    warmup = summarize(await runAutocannon(autocannonOptions(scenario, { ...settings, duration: settings.warmup })));
  }
  settleMs += await settle(scenario);
  // What the scenario prepares for the measured run (pre-signed DPoP proofs), sized by the warm-up's rate.
  const prepared = scenario.beforeMeasure ? await scenario.beforeMeasure({ warmup, seconds: settings.duration }) : undefined;
  const result = await runAutocannon(autocannonOptions(scenario, settings));
  const notes = scenario.afterMeasure ? scenario.afterMeasure() : undefined;
  return { ...summarize(result), settleMs, ...prepared ? { prepared } : {}, ...notes ? { notes } : {} };
}

module.exports = { measure, settle, summarize, describeProblems, requestAt };
