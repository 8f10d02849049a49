#!/usr/bin/env node
'use strict';

// The baseline: a bare Node server doing the least a webhook endpoint can do. POST /hook reads the
// body, parses it as JSON (400 if not), keeps it in an in-memory list (no durability), answers 202,
// and runs a no-op "action" on the next tick. GET /stats reports counts and POST-to-action times.
//   node bench/webhooks/bare-webhook-server.js <port>
const http = require('node:http');

const port = Number(process.argv[2] || 0);
let accepted = 0;
let processed = 0;
const latencies = [];
const queue = [];

function drain() {
  while (queue.length > 0) {
    const job = queue.shift();
    processed += 1;
    latencies.push(Number(process.hrtime.bigint() - job.at) / 1e6);
  }
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    const body = JSON.stringify({ accepted, processed, latencies: req.url.includes('latencies') ? latencies : undefined });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let data;
    try {
      data = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_json"}');
      return;
    }
    accepted += 1;
    const job = `job-${accepted}`;
    queue.push({ job, data, at: process.hrtime.bigint() });
    if (queue.length === 1) setImmediate(drain);
    const text = JSON.stringify({ status: 'accepted', job });
    res.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
