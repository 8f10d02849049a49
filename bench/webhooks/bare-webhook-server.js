#!/usr/bin/env node
'use strict';

// The baseline: a bare Node server doing the least a webhook endpoint can do. POST /hook reads the
// body, parses it as JSON (400 if not), keeps it in an in-memory list (no durability), answers 202,
// and runs a no-op "action" on the next tick. GET /stats reports counts and POST-to-action times.
//   node bench/webhooks/bare-webhook-server.js <port>
const { serveBaseline } = require('./baseline-server');

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

const server = serveBaseline(Number(process.argv[2] || 0), (data, done) => {
  accepted += 1;
  const job = `job-${accepted}`;
  queue.push({ job, data, at: process.hrtime.bigint() });
  if (queue.length === 1) setImmediate(drain);
  done(job);
}, () => ({ accepted, processed, latencies }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
