#!/usr/bin/env node
'use strict';

// A second baseline: the least a DURABLE webhook endpoint on BullMQ can do. POST /hook reads the
// body, parses it as JSON (400 if not), adds one BullMQ job per POST (as a plain Node service would),
// answers 202 once Redis has it, and a worker in the same process runs a no-op "action".
// GET /stats reports counts and POST-to-action times.
//   node bench/webhooks/bare-bullmq-server.js <port> <redis url>
const { Queue, Worker } = require('bullmq');
const { serveBaseline } = require('./baseline-server');

const connection = { url: process.argv[3] };
const name = `bare-hooks-${process.pid}`;
const queue = new Queue(name, { connection, prefix: 'bench', defaultJobOptions: { removeOnComplete: true, attempts: 15 } });
let accepted = 0;
let processed = 0;
const latencies = [];
const worker = new Worker(name, async (job) => {
  processed += 1;
  latencies.push(Date.now() - job.data.at);
}, { connection, prefix: 'bench', concurrency: 16 });
worker.on('error', () => undefined);

const server = serveBaseline(Number(process.argv[2] || 0), (data, done) => {
  queue.add('hook', { data, at: Date.now() }).then((job) => {
    accepted += 1;
    done(job.id);
  }, () => done(null));
}, () => ({ accepted, processed, latencies }));
process.on('SIGTERM', () => server.close(() => Promise.all([ worker.close(), queue.close() ]).finally(() => process.exit(0))));
