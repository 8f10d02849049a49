'use strict';

// Starts and reads the receiving side of the benchmark: `hosts` HTTPS ports
// (one remote host each, https://localhost:PORT) spread over `processes`
// sink processes (sink.js), each with its own plain-HTTP control port.

const path = require('node:path');
const { freePort } = require('../../lib/ports');
const { request } = require('../../lib/http');
const { startServer, sleep } = require('../../lib/process');
const { tlsEnv } = require('./tls');

const SINK_PROGRAM = path.join(__dirname, 'sink.js');
const POLL_MS = 20;
const PORT_ATTEMPTS = 3;

/** Runs `start` again (up to 3 times in all) when a port picked in advance was taken meanwhile. */
async function withPortRetry(start) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !String(error.message).includes('EADDRINUSE')) {
        throw error;
      }
    }
  }
}

async function startSinks({ tls, hosts, processes, publicKeyFile, verify, timeoutMs }) {
  const counts = Array.from({ length: Math.min(processes, hosts) }, (_, index) =>
    Math.floor(hosts / Math.min(processes, hosts)) + (index < hosts % Math.min(processes, hosts) ? 1 : 0));
  const controls = [];
  const handles = [];
  const getJson = async (url) => JSON.parse((await request(url)).body);
  const ports = [];
  try {
    for (const [index, count] of counts.entries()) {
      // The control port is picked here (a small race, retried); the HTTPS ports by the kernel.
      const handle = await withPortRetry(async () => {
        const controlPort = await freePort();
        const started = await startServer({
          name: `sink-${index}`,
          args: [
            SINK_PROGRAM, '--hosts', String(count), '--control-port', String(controlPort),
            '--cert', tls.certFile, '--key', tls.keyFile, '--public-key', publicKeyFile, '--verify', verify ? '1' : '0',
          ],
          env: tlsEnv(tls),
          readyUrl: `http://127.0.0.1:${controlPort}/healthz`,
          timeoutMs,
        });
        return { ...started, control: `http://127.0.0.1:${controlPort}/` };
      });
      handles.push(handle);
      controls.push(handle.control);
      ports.push(...(await getJson(`${handle.control}healthz`)).ports);
    }
  } catch (error) {
    await Promise.all(handles.map((handle) => handle.stop()));
    throw error;
  }
  // Host i is the i-th port of process i mod P, so consecutive hosts alternate between processes.
  const perProcess = [];
  let offset = 0;
  for (const count of counts) {
    perProcess.push(ports.slice(offset, offset + count));
    offset += count;
  }
  const ordered = [];
  for (let round = 0; ordered.length < ports.length; round++) {
    for (const group of perProcess) {
      if (round < group.length) {
        ordered.push(group[round]);
      }
    }
  }

  const sinks = {
    hosts: ordered.map((port) => ({ port, origin: `https://localhost:${port}` })),
    processes: counts.length,
    logFiles: handles.map((handle) => handle.logFile),

    /** Tell every sink the senders' keys ({keyId: pem}), so verifying needs no fetch. */
    async registerKeys(keys) {
      for (const control of controls) {
        const res = await request(`${control}keys`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(keys),
        });
        if (res.status !== 200) {
          throw new Error(`sink ${control}keys answered ${res.status}: ${res.body}`);
        }
      }
    },

    /** Deliveries of one activity over all sinks: {posts, distinctInboxes, firstAt, lastAt[, times]}. */
    async stats(tag, withTimes = false) {
      const parts = await Promise.all(controls.map((control) =>
        getJson(`${control}stats?tag=${encodeURIComponent(tag)}${withTimes ? '&times=1' : ''}`)));
      const firsts = parts.map((part) => part.firstAt).filter((at) => at > 0);
      return {
        posts: parts.reduce((sum, part) => sum + part.posts, 0),
        distinctInboxes: parts.reduce((sum, part) => sum + part.distinctInboxes, 0),
        firstAt: firsts.length > 0 ? Math.min(...firsts) : 0,
        lastAt: Math.max(0, ...parts.map((part) => part.lastAt)),
        ...withTimes ? { times: parts.flatMap((part) => part.times).sort((a, b) => a - b) } : {},
      };
    },

    /** Sum of every sink's counters (posts, accepted, rejected by reason, verified, actor GETs). */
    async totals() {
      const parts = await Promise.all(controls.map((control) => getJson(`${control}totals`)));
      const sum = { posts: 0, accepted: 0, rejected: {}, verified: 0, unverifiedRfc9421: 0, actorGets: 0, handshakes: 0 };
      for (const part of parts) {
        for (const key of ['posts', 'accepted', 'verified', 'unverifiedRfc9421', 'actorGets', 'handshakes']) {
          sum[key] += part[key];
        }
        for (const [reason, count] of Object.entries(part.rejected)) {
          sum.rejected[reason] = (sum.rejected[reason] || 0) + count;
        }
      }
      return sum;
    },

    /**
     * Polls until `expected` distinct inboxes have accepted the activity `tag`,
     * or `timeoutMs` passes. Resolves to its stats plus `complete`.
     */
    async waitFor(tag, expected, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const stats = await sinks.stats(tag);
        if (stats.distinctInboxes >= expected) {
          return { ...stats, complete: true };
        }
        if (Date.now() >= deadline) {
          return { ...stats, complete: false };
        }
        await sleep(POLL_MS);
      }
    },

    async stop() {
      await Promise.all(handles.map((handle) => handle.stop()));
    },
  };
  return sinks;
}

module.exports = { startSinks, withPortRetry };
