'use strict';

// An HTTPS front for Fedpod's plain-HTTP port (a TLS-terminating reverse proxy
// as an operator would put in front of it), so Fedpod has an https:// base URL,
// which federation needs. A plain-JS copy of test/support/https-proxy.ts:
// every request goes to http://127.0.0.1:<targetPort> with its Host header
// unchanged (HTTP signatures cover Host; CSS builds IRIs from it) and
// X-Forwarded-Proto https, X-Forwarded-Host, X-Forwarded-For set. Bodies are
// streamed both ways; upstream connections are kept alive.
//
// It runs inside the bench process. The benchmark's own load (fan-out, inbox
// ingest) never goes through it: only sign-up and outbox POSTs do.

const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');

// Connection-specific headers are not forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

function endToEnd(headers) {
  const connectionTokens = String(headers.connection || '').toLowerCase().split(',').map((token) => token.trim());
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connectionTokens.includes(name)) {
      continue;
    }
    out[name] = value;
  }
  return out;
}

/** Resolves to { port, url: https://localhost:PORT/, host, stop() }. */
async function startHttpsProxy({ targetPort, certFile, keyFile, port = 0 }) {
  const upstream = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let publicHost = '';
  const server = https.createServer(
    { cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile), keepAlive: true },
    (req, res) => {
      const headers = endToEnd(req.headers);
      headers.host = req.headers.host || publicHost;
      headers['x-forwarded-proto'] = 'https';
      headers['x-forwarded-host'] = headers.host;
      const client = req.socket.remoteAddress || '127.0.0.1';
      headers['x-forwarded-for'] = req.headers['x-forwarded-for'] === undefined ?
        client : `${String(req.headers['x-forwarded-for'])}, ${client}`;
      if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined) {
        headers['transfer-encoding'] = 'chunked';
      }
      const forward = http.request(
        { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers, agent: upstream },
        (answer) => {
          res.writeHead(answer.statusCode || 502, answer.statusMessage, endToEnd(answer.headers));
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
      forward.on('error', (error) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const text = `https-proxy: upstream http://127.0.0.1:${targetPort} failed: ${error.message}\n`;
        res.writeHead(502, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
      res.on('close', () => {
        if (!res.writableFinished) {
          forward.destroy();
        }
      });
      req.pipe(forward);
    },
  );
  server.on('tlsClientError', () => undefined);
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = server.address().port;
  publicHost = `localhost:${actualPort}`;
  let stopped;
  return {
    port: actualPort,
    url: `https://${publicHost}/`,
    host: publicHost,
    stop() {
      stopped = stopped || new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        upstream.destroy();
      });
      return stopped;
    },
  };
}

module.exports = { startHttpsProxy };
