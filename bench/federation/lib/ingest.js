'use strict';

// The inbox-ingest load generator: N signed Create activities, all precomputed
// (signing is not what is measured), POSTed with a fixed number of keep-alive
// connections. Bounded in count (N) and in time (maxSeconds: no new request
// is started after it). Plain HTTP to 127.0.0.1, with the Host header (which
// the signature covers) of the server's public https:// base, as behind a
// TLS-terminating proxy.

const http = require('node:http');
const { signPost } = require('./cavage');

const REQUEST_TIMEOUT_MS = 30000;
const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/**
 * `count` requests to `inboxUrl` (public URL: its host and path are signed),
 * each a Create of a Note by `sender`, with ids `${sender}/activities/${runTag}-<i>`.
 */
function buildRequests({ count, runTag, inboxUrl, sender, keyId, privateKey, recipient, extraHeaders = {} }) {
  const target = new URL(inboxUrl);
  const date = new Date();
  const requests = [];
  for (let i = 0; i < count; i++) {
    const id = `${runTag}-${i}`;
    const note = {
      id: `${sender}/notes/${id}`,
      type: 'Note',
      attributedTo: sender,
      content: `<p>ingest ${id}</p>`,
      to: [recipient],
      cc: [AS_PUBLIC],
      published: date.toISOString(),
    };
    const body = Buffer.from(JSON.stringify({
      '@context': AS_CONTEXT,
      id: `${sender}/activities/${id}`,
      type: 'Create',
      actor: sender,
      to: [recipient],
      cc: [AS_PUBLIC],
      published: date.toISOString(),
      object: note,
    }));
    const headers = signPost({ url: inboxUrl, body, keyId, privateKey, date });
    requests.push({ path: `${target.pathname}${target.search}`, headers: { ...headers, ...extraHeaders }, body });
  }
  return requests;
}

function percentile(sorted, fraction) {
  if (sorted.length === 0) {
    return null;
  }
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function sendOne(agent, port, item) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: item.path, agent, timeout: REQUEST_TIMEOUT_MS,
      headers: { ...item.headers, 'content-length': item.body.length },
    }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({
        status: res.statusCode, ms: performance.now() - started, body: Buffer.concat(chunks).toString('utf8'),
      }));
      res.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', (error) => resolve({ status: 0, ms: performance.now() - started, error: error.message }));
    req.end(item.body);
  });
}

/**
 * POSTs `requests` over `connections` keep-alive connections to 127.0.0.1:port.
 * Resolves to { sent, accepted (202), ok2xx, statusCodes, errors, firstProblem,
 * elapsedMs, acceptedPerSec, latencyP50Ms, latencyP99Ms, stoppedByTime, startedAt }.
 */
async function runLoad({ requests, port, connections, maxSeconds }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  const statusCodes = {};
  let next = 0;
  let errors = 0;
  let firstProblem = '';
  let stoppedByTime = false;
  const startedAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const deadline = started + maxSeconds * 1000;
  const worker = async () => {
    for (;;) {
      if (next >= requests.length) {
        return;
      }
      if (performance.now() >= deadline) {
        stoppedByTime = true;
        return;
      }
      const item = requests[next++];
      const result = await sendOne(agent, port, item);
      latencies.push(result.ms);
      if (result.status === 0) {
        errors += 1;
        firstProblem = firstProblem || result.error;
      } else {
        statusCodes[result.status] = (statusCodes[result.status] || 0) + 1;
        if ((result.status < 200 || result.status > 299) && !firstProblem) {
          firstProblem = `${result.status} ${result.body.slice(0, 200).replace(/\s+/g, ' ')}`;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStarted);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const ok2xx = Object.entries(statusCodes).filter(([code]) => code.startsWith('2')).reduce((sum, [, n]) => sum + n, 0);
  const accepted = statusCodes[202] || 0;
  return {
    sent: latencies.length,
    accepted,
    ok2xx,
    statusCodes,
    errors,
    firstProblem,
    elapsedMs,
    acceptedPerSec: accepted / (elapsedMs / 1000),
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP99Ms: percentile(latencies, 0.99),
    stoppedByTime,
    startedAt,
    generatorCpuMsPerRequest: latencies.length > 0 ? (cpu.user + cpu.system) / 1000 / latencies.length : null,
  };
}

module.exports = { buildRequests, runLoad };
