'use strict';

// The servers the federation benchmark measures. Each target's start() resolves
// to a session with the same operations, so run.js treats them alike:
//   info                          what was started (ports, log, start time, flags, pid of the
//                                 node process that sends the deliveries)
//   prepareFanOut(shape, list)    give the sender `list` followers (shape 's' or 'd')
//   senderKeys(shape)             {keyId: pem} of the sending actor, for the sinks
//   post(shape, tag)              publish a Note (content = tag) to the followers;
//                                 resolves to { at: epoch ms of the answer, ms: answer time }
//   ingest                        { inboxUrl, recipient, port, extraHeaders } for the load generator
//   processed()                   activities the inbox has fully processed so far
//   stop()

const fs = require('node:fs');
const path = require('node:path');
const { freePort } = require('../../lib/ports');
const { request } = require('../../lib/http');
const { startServer } = require('../../lib/process');
const { fedpodCommand, FEDPOD_BIN } = require('../../lib/fedpod');
const { httpsRequest, tlsEnv } = require('./tls');
const fedpod = require('./fedpod-https');
const { withPortRetry } = require('./sinks');

const FEDIFY_APP = path.join(__dirname, 'fedify-app.js');
const FALLBACK_CONCURRENCY = 32;

// Fedpod's deliveries in flight, as its activitypub config sets them (the Fedify
// reference target gets as many workers).
const DELIVERY_CONCURRENCY = (() => {
  try {
    const root = path.resolve(path.dirname(FEDPOD_BIN), '..');
    const text = fs.readFileSync(path.join(root, 'config', 'parts', 'activitypub', 'components', 'federation.json'), 'utf8');
    // FederationWorkers takes one options object: its field is `options_deliveryConcurrency` in the config.
    const match = /"(?:options_)?deliveryConcurrency"\s*:\s*(\d+)/.exec(text);
    if (!match) {
      throw new Error('no deliveryConcurrency in the activitypub config');
    }
    return Number(match[1]);
  } catch (error) {
    // Said, so that the Fedify target's workers are not silently fewer than Fedpod's deliveries.
    console.warn(`bench/federation: Fedpod's deliveries in flight unknown (${error.message}); taking ${FALLBACK_CONCURRENCY}`);
    return FALLBACK_CONCURRENCY;
  }
})();
const FEDIFY_VERSION = (() => {
  try {
    // Not require(): the package's exports map does not list package.json.
    const entry = require.resolve('@fedify/fedify');
    const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
    return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
})();

// ---------- Fedpod ----------

// The directory of `--cpu-prof --cpu-prof-dir=DIR` (or `--cpu-prof-dir DIR`), else ''.
function profileDirOf(nodeArgs) {
  if (!nodeArgs.includes('--cpu-prof')) {
    return '';
  }
  const index = nodeArgs.findIndex((arg) => arg.startsWith('--cpu-prof-dir'));
  if (index < 0) {
    return process.cwd();
  }
  return path.resolve(nodeArgs[index].includes('=') ? nodeArgs[index].split('=')[1] : nodeArgs[index + 1]);
}

async function startFedpod({ tls, startTimeout, followers }) {
  const cli = await fedpodCommand('start');
  if (!cli.ok) {
    throw new Error(cli.reason);
  }
  // BENCH_FED_FEDPOD_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, to see where Fedpod's time goes.
  const nodeArgs = (process.env.BENCH_FED_FEDPOD_NODE_ARGS || '').split(/\s+/).filter(Boolean);
  const server = await withPortRetry(() => fedpod.startHttpsFedpod({ tls, timeoutMs: startTimeout * 1000, nodeArgs }));
  try {
    const users = {};
    for (const [role, username] of [['s', 'fanshared'], ['d', 'fandistinct'], ['ingest', 'ingest']]) {
      users[role] = await fedpod.signUp(server, username, tls.caFile);
      users[role].key = await fedpod.actorKey(users[role].actorUrl, tls.caFile);
    }
    const ingestUser = users.ingest.actorUrl;
    return {
      info: {
        baseUrl: server.baseUrl, port: server.port, storePort: server.storePort, startMs: server.startMs,
        log: server.logFile, pid: server.pid, flags: server.flags, nodeArgs: nodeArgs.join(' '), profileDir: profileDirOf(nodeArgs), users: Object.fromEntries(Object.entries(users).map(([role, user]) => [role, user.actorUrl])),
        followersSeeded: 'directly into the store (SPARQL INSERT DATA on the embedded store\'s update endpoint)',
      },
      async prepareFanOut(shape, list) {
        await fedpod.seedFollowers(server, users[shape].actorUrl, list, process.env.BENCH_FED_FIRST_CONTACT === '1');
        const count = await fedpod.followerCount(users[shape].actorUrl, tls.caFile);
        if (count !== followers) {
          throw new Error(`GET ${users[shape].actorUrl}/followers has totalItems ${count} after seeding ${followers}`);
        }
      },
      senderKeys: (shape) => ({ [users[shape].key.keyId]: users[shape].key.pem }),
      post: (shape, tag) => fedpod.postNote(users[shape].actorUrl, users[shape].token, tag, tls.caFile),
      ingest: {
        inboxUrl: `${ingestUser}/inbox`,
        recipient: ingestUser,
        port: server.port,
        // What the proxy would add; the load goes straight to Fedpod's port.
        extraHeaders: { 'x-forwarded-proto': 'https', 'x-forwarded-host': server.publicHost, 'x-forwarded-for': '127.0.0.1' },
      },
      processed: () => fedpod.inboxCount(server, ingestUser),
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

// ---------- Fedify ----------

function fedifyStarter(queue) {
  return async ({ tls, startTimeout }) => {
    let port;
    let httpPort;
    // BENCH_FED_FEDIFY_NODE_ARGS: node flags for the Fedify app (e.g. --cpu-prof --cpu-prof-dir=DIR).
    const nodeArgs = (process.env.BENCH_FED_FEDIFY_NODE_ARGS || '').split(/\s+/).filter(Boolean);
    const handle = await withPortRetry(async () => {
      port = await freePort();
      httpPort = await freePort();
      return startServer({
        name: `fedify-${queue.replace(/\W+/g, '')}`,
        args: [...nodeArgs, FEDIFY_APP, '--port', String(port), '--http-port', String(httpPort), '--cert', tls.certFile,
          '--key', tls.keyFile, '--queue', queue],
        env: tlsEnv(tls),
        readyUrl: `http://127.0.0.1:${httpPort}/_bench/health`,
        timeoutMs: startTimeout * 1000,
      });
    });
    const control = `http://127.0.0.1:${httpPort}/_bench/`;
    const origin = `https://localhost:${port}`;
    const actorUrl = `${origin}/users/bench`;
    const call = async (route, body) => {
      const res = await request(`${control}${route}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: 60000,
      });
      if (res.status !== 200) {
        throw new Error(`Fedify app ${route} answered ${res.status}: ${res.body.slice(0, 300)}`);
      }
      return JSON.parse(res.body);
    };
    try {
      const actorRes = await httpsRequest(actorUrl, { headers: { accept: 'application/activity+json' } }, tls.caFile);
      const actor = JSON.parse(actorRes.body);
      if (actorRes.status !== 200 || !actor.publicKey || typeof actor.publicKey.publicKeyPem !== 'string') {
        throw new Error(`GET ${actorUrl} answered ${actorRes.status} without publicKey: ${actorRes.body.slice(0, 200)}`);
      }
      const keys = { [actor.publicKey.id]: actor.publicKey.publicKeyPem };
      return {
        info: {
          origin, httpPort, queue, fedify: FEDIFY_VERSION, startMs: handle.startMs, log: handle.logFile, pid: handle.pid,
          followersIn: 'Fedify KV (MemoryKvStore)',
        },
        async prepareFanOut(_shape, list) {
          const answer = await call('followers', { followers: list });
          if (answer.followers !== list.length) {
            throw new Error(`Fedify app took ${answer.followers} followers, not ${list.length}`);
          }
        },
        senderKeys: () => keys,
        async post(_shape, tag) {
          const started = performance.now();
          await call('send', { tag, preferSharedInbox: true });
          const ended = performance.now();
          return { at: performance.timeOrigin + ended, ms: ended - started };
        },
        ingest: { inboxUrl: `${actorUrl}/inbox`, recipient: actorUrl, port: httpPort, extraHeaders: {} },
        processed: async () => (await call('stats')).creates,
        stop: handle.stop,
      };
    } catch (error) {
      await handle.stop();
      throw error;
    }
  };
}

const TARGETS = [
  {
    id: 'fedpod', label: 'Fedpod',
    description: `fedpod start --config activitypub (embedded store, local durable queue, ${DELIVERY_CONCURRENCY} deliveries ` +
      'in flight) behind the HTTPS proxy',
    start: startFedpod,
  },
  {
    id: 'fedify', label: 'Fedify',
    description: `Fedify ${FEDIFY_VERSION} app, MemoryKvStore + InProcessMessageQueue (its default in-process queue: one message at a time)`,
    start: fedifyStarter('default'),
  },
  {
    id: 'fedify-par', label: `Fedify-par${DELIVERY_CONCURRENCY}`,
    description: `Fedify ${FEDIFY_VERSION} app, ParallelMessageQueue(InProcessMessageQueue, ${DELIVERY_CONCURRENCY}): ` +
      'as many deliveries in flight as Fedpod',
    start: fedifyStarter(`parallel:${DELIVERY_CONCURRENCY}`),
  },
];

module.exports = { TARGETS, FEDIFY_VERSION, DELIVERY_CONCURRENCY };
