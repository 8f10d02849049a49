#!/usr/bin/env node
'use strict';

// Streaming benchmark: how long from POST /api/v1/statuses until the status arrives as an `update`
// event on the user's streaming socket (/api/v1/streaming?stream=user), one status at a time, on
// Fedpod's activitypub setup with its embedded store. The floor, in the same run: a bare Node
// HTTP + WebSocket server (ws) that sends each POSTed body to its sockets at once (no storage, no
// checks): the least "an HTTP POST shows up on a socket" costs on this machine. Goal: median ≤ 100 ms.
//   node bench/mastodon-streaming/run.js  (BENCH_STREAM_SAMPLES: statuses posted, 50)
const http = require('node:http');
const WebSocket = require('ws');
const { loadConfig, readNumber } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { expectStatus } = require('../lib/http');
const { startFedpod } = require('../lib/fedpod');
const { formatTable, formatNumber } = require('../lib/report');
const { log, startRun, runMain, saveResults } = require('../lib/runner');

const GOAL_MS = 100;
const SAMPLES = { env: 'BENCH_STREAM_SAMPLES', fallback: 50, min: 5, max: 1000 };
const WARMUP = 5;

function percentile(values, p) {
  const sorted = [ ...values ].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A socket's `update` events, each resolving whoever waits for the text it carries. */
function listen(socket) {
  const waiting = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.event !== 'update') return;
    for (const [ text, resolve ] of waiting) {
      if (message.payload.includes(text)) {
        waiting.delete(text);
        resolve(process.hrtime.bigint());
      }
    }
  });
  return (text) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no update for ${text} in 30 s`)), 30_000);
    waiting.set(text, (at) => {
      clearTimeout(timer);
      resolve(at);
    });
  });
}

async function openSocket(url, protocols) {
  const socket = new WebSocket(url, protocols);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Posts `samples` statuses one after the other; the time from each POST until its update arrived, in ms. */
async function measure(samples, post, arrival) {
  const times = [];
  for (let index = 0; index < WARMUP + samples; index++) {
    const text = `status ${index} ${Math.random().toString(36).slice(2)}`;
    const arrived = arrival(text);
    const start = process.hrtime.bigint();
    await post(text);
    const at = await arrived;
    if (index >= WARMUP) times.push(Number(at - start) / 1e6);
  }
  return times;
}

async function floor(samples) {
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const status = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const event = JSON.stringify({ stream: [ 'user' ], event: 'update', payload: JSON.stringify({ content: status.status }) });
      for (const socket of sockets) socket.send(event);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const wss = new WebSocket.Server({ server });
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const socket = await openSocket(`ws://127.0.0.1:${port}/`);
  try {
    return await measure(samples, (text) => expectStatus(`http://127.0.0.1:${port}/post`, { method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: text }) }, [ 200 ]), listen(socket));
  } finally {
    socket.close();
    wss.close();
    server.close();
  }
}

async function fedpod(config, samples) {
  const port = await freePort();
  const server = await startFedpod({ name: 'fedpod-streaming', config: 'activitypub', port, storePort: await freePort(),
    timeoutMs: config.startTimeout * 1000 });
  let socket;
  try {
    const signup = await expectStatus(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', email: 'alice@example.com', password: 'correct horse' }) }, [ 201 ]);
    const { token } = JSON.parse(signup.body);
    socket = await openSocket(`ws://localhost:${port}/api/v1/streaming?stream=user`, [ token ]);
    const arrival = listen(socket);
    return await measure(samples, (text) => expectStatus(`${server.baseUrl}api/v1/statuses`, { method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ status: text, visibility: 'public' }) }, [ 200 ]), arrival);
  } finally {
    socket?.close();
    await server.stop();
  }
}

async function main() {
  const config = loadConfig();
  const { machineAtStart } = startRun(config, { name: 'mastodon-streaming' });
  const samples = Math.round(readNumber(SAMPLES));
  log(`Posting ${samples} statuses one at a time (after ${WARMUP} not counted), each waited for on the socket.`);
  const bare = await floor(samples);
  const ours = await fedpod(config, samples);
  const rows = [ [ 'bare Node + ws (floor)', bare ], [ 'Fedpod', ours ] ].map(([ name, times ]) =>
    [ name, formatNumber(percentile(times, 50)), formatNumber(percentile(times, 90)), formatNumber(Math.max(...times)) ]);
  log(formatTable([[ 'POST to update event', 'median ms', 'p90 ms', 'max ms' ]], rows));
  const median = percentile(ours, 50);
  const ratio = median / percentile(bare, 50);
  log(`Fedpod / floor (median): x${formatNumber(ratio)}`);
  const met = median <= GOAL_MS;
  log(`goal: median ≤ ${GOAL_MS} ms: ${met ? 'met' : 'NOT met'} (${formatNumber(median)} ms)`);
  saveResults('mastodon-streaming', { machineAtStart, samples, floorMs: bare, fedpodMs: ours, medianMs: median, ratio, goalMet: met });
  return met ? 0 : 1;
}

runMain('mastodon-streaming', main);
