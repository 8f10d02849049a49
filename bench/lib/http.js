'use strict';

const http = require('node:http');

const DEFAULT_TIMEOUT_MS = 15000;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

// One keep-alive agent for all set-up traffic (seeding, readiness polls).
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

// Benchmarks only ever talk to this machine; refuse anything else so a typo
// in a base URL can never send load across the network.
function assertLoopback(url) {
  if (url.protocol !== 'http:' || !LOOPBACK_NAMES.has(url.hostname)) {
    throw new Error(`refusing non-loopback URL ${url.href}`);
  }
}

// Connection details for a URL: always dial 127.0.0.1 (avoids localhost
// resolving to ::1 on some systems) but keep the Host header of the URL,
// since Solid servers derive resource IRIs from it.
function connectionFor(urlString) {
  const url = new URL(urlString);
  assertLoopback(url);
  return {
    url,
    address: '127.0.0.1',
    port: Number(url.port || 80),
    hostHeader: url.host,
    path: `${url.pathname}${url.search}`,
  };
}

// Minimal promise-based HTTP request, returning status, headers and text body.
function request(urlString, options = {}) {
  const { method = 'GET', headers = {}, body, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const target = connectionFor(urlString);
  const allHeaders = { host: target.hostHeader, ...headers };
  if (body !== undefined) {
    allHeaders['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: target.address,
      port: target.port,
      path: target.path,
      method,
      headers: allHeaders,
      agent,
      timeout: timeoutMs,
    }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({
        status: res.statusCode,
        headers: res.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${urlString}`)));
    req.on('error', reject);
    req.end(body);
  });
}

// Like request() but throws unless the status is one of `expected`.
async function expectStatus(urlString, options, expected) {
  const res = await request(urlString, options);
  if (!expected.includes(res.status)) {
    const method = (options && options.method) || 'GET';
    throw new Error(`${method} ${urlString} answered ${res.status} (expected ${expected.join('/')}): ` +
      res.body.slice(0, 300));
  }
  return res;
}

function basicAuth(user, password) {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

module.exports = { request, expectStatus, connectionFor, basicAuth, assertLoopback };
