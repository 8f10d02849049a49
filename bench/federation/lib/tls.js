'use strict';

// TLS for the federation benchmark: one throw-away CA and one server
// certificate (localhost, 127.0.0.1, ::1), made with openssl, as
// test/support/tls.ts does for the federation tests. Every HTTPS server of the
// run (sinks, the Fedify app, the proxy in front of Fedpod) serves this
// certificate; every child trusts the CA through NODE_EXTRA_CA_CERTS.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const path = require('node:path');

const OPENSSL_TIMEOUT_MS = 30000;

const SERVER_EXTENSIONS = [
  'basicConstraints = critical, CA:FALSE',
  'keyUsage = critical, digitalSignature, keyEncipherment',
  'extendedKeyUsage = serverAuth',
  'subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1',
  'subjectKeyIdentifier = hash',
  'authorityKeyIdentifier = keyid, issuer',
  '',
].join('\n');

function openssl(cwd, args) {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: OPENSSL_TIMEOUT_MS });
  } catch (error) {
    const stderr = error.stderr ? error.stderr.toString() : '';
    throw new Error(`openssl ${args.join(' ')} failed: ${error.message}\n${stderr}`);
  }
}

/** CA + server certificate (P-256) in `dir`; resolves to { caFile, certFile, keyFile }. */
function makeTls(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req', '-x509', ...ec, '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '30', '-sha256',
    '-subj', '/CN=Fedpod bench CA',
    '-addext', 'basicConstraints = critical, CA:TRUE',
    '-addext', 'keyUsage = critical, keyCertSign, cRLSign',
  ]);
  openssl(dir, ['req', '-new', ...ec, '-keyout', 'server-key.pem', '-out', 'server.csr', '-subj', '/CN=localhost']);
  fs.writeFileSync(path.join(dir, 'server.ext'), SERVER_EXTENSIONS);
  const serial = `0x${Date.now().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`;
  openssl(dir, [
    'x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-set_serial', serial,
    '-out', 'server.pem', '-days', '30', '-sha256', '-extfile', 'server.ext',
  ]);
  return {
    caFile: path.join(dir, 'ca.pem'),
    certFile: path.join(dir, 'server.pem'),
    keyFile: path.join(dir, 'server-key.pem'),
  };
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function assertLoopbackHttps(url) {
  if (!['https:', 'http:'].includes(url.protocol) || !LOOPBACK_NAMES.has(url.hostname)) {
    throw new Error(`refusing non-loopback URL ${url.href}`);
  }
}

const agents = new Map();

// One keep-alive agent per CA file, trusting only that CA.
function trustingAgent(caFile) {
  let agent = agents.get(caFile);
  if (!agent) {
    agent = new https.Agent({ ca: fs.readFileSync(caFile), keepAlive: true, maxSockets: 16 });
    agents.set(caFile, agent);
  }
  return agent;
}

function destroyAgents() {
  for (const agent of agents.values()) {
    agent.destroy();
  }
  agents.clear();
}

/**
 * One HTTPS request from the bench process to a loopback server, trusting the
 * run's CA; always dials 127.0.0.1 but keeps the URL's Host. Resolves to
 * { status, headers, body } (body as text).
 */
function httpsRequest(urlString, { method = 'GET', headers = {}, body, timeoutMs = 15000 } = {}, caFile) {
  const url = new URL(urlString);
  assertLoopbackHttps(url);
  const sent = { host: url.host, ...headers };
  if (body !== undefined) {
    sent['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1',
      servername: 'localhost',
      port: Number(url.port || 443),
      path: `${url.pathname}${url.search}`,
      method,
      headers: sent,
      agent: trustingAgent(caFile),
      timeout: timeoutMs,
    }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${urlString}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** NODE_EXTRA_CA_CERTS for children that must trust the run's CA. */
function tlsEnv(tls) {
  return { NODE_EXTRA_CA_CERTS: tls.caFile };
}

module.exports = { makeTls, httpsRequest, destroyAgents, tlsEnv, assertLoopbackHttps };
