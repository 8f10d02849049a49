'use strict';

// The collection part of bench/scale: Fedpod's activitypub setup behind the federation bench's HTTPS
// proxy, with one sink process serving the remote followers' actor documents (bench/federation/lib).
// Two local actors are grown through the public API only: `famous` gets followers by signed Follow
// activities POSTed to its inbox (Fedpod fetches each follower's actor, verifies, stores it and sends
// an Accept to the sink); `poster` gets outbox activities by POSTing Notes to Public (no followers, so
// nothing is delivered). The load goes to Fedpod's own port with the public Host and the headers the
// proxy would add, so TLS is not measured.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { log, measureScenario, withTargetSession } = require('../lib/runner');
const { sleep } = require('../lib/process');
const { makeDataDir } = require('../lib/fedpod');
const { request } = require('../lib/http');
const { formatNumber } = require('../lib/report');
const { makeTls, destroyAgents } = require('../federation/lib/tls');
const { startSinks } = require('../federation/lib/sinks');
const { startHttpsFedpod, signUp } = require('../federation/lib/fedpod-https');
const { signPost } = require('../federation/lib/cavage');
const { sampleRequests } = require('./measure');
const { grow } = require('./grow');

const COLLECTIONS_TARGET = {
  id: 'fedpod-ap', label: 'Fedpod-AP',
  description: 'fedpod start --config activitypub (embedded store) behind an HTTPS proxy, remote followers on a sink',
};
const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const AP_JSON = 'application/activity+json';
const POLL_MS = 500;
const LABEL_WIDTH = 30;
const RUN_TAG = crypto.randomBytes(4).toString('hex');

/** How to reach `publicUrl` (https://localhost:PROXY/...) on Fedpod's own port, as the proxy would. */
function direct(server, publicUrl) {
  const url = new URL(publicUrl);
  return {
    url: `http://localhost:${server.port}${url.pathname}${url.search}`,
    headers: { host: server.publicHost, 'x-forwarded-proto': 'https', 'x-forwarded-host': server.publicHost, 'x-forwarded-for': '127.0.0.1' },
  };
}

async function getJson(server, publicUrl) {
  const { url, headers } = direct(server, publicUrl);
  const res = await request(url, { headers: { ...headers, accept: AP_JSON }, timeoutMs: 60000 });
  if (res.status !== 200) {
    throw new Error(`GET ${publicUrl} answered ${res.status}: ${res.body.slice(0, 200)}`);
  }
  return JSON.parse(res.body);
}

/** A signed Follow of `followed` by remote actor number `index` on the sink. */
function followRequest(server, followed, origin, privateKey, index) {
  const follower = `${origin}/s/users/f${index}`;
  const inbox = `${followed}/inbox`;
  const body = Buffer.from(JSON.stringify({
    '@context': AS_CONTEXT, id: `${follower}/follows/${RUN_TAG}`, type: 'Follow', actor: follower, object: followed,
  }));
  const signed = signPost({ url: inbox, body, keyId: `${follower}#main-key`, privateKey });
  const { url, headers } = direct(server, inbox);
  return { url, method: 'POST', headers: { ...headers, ...signed }, body };
}

function outboxPost(server, poster, token, content) {
  const { url, headers } = direct(server, `${poster}/outbox`);
  return {
    url, method: 'POST',
    headers: { ...headers, authorization: `Bearer ${token}`, 'content-type': 'application/activity+json' },
    body: JSON.stringify({ '@context': AS_CONTEXT, type: 'Note', content: `scale ${content}`, to: [AS_PUBLIC] }),
  };
}

/** Wait until the followers collection holds `count` (the inbox queue works after the 202s). */
async function waitForFollowers(server, followed, count, deadline) {
  let total = 0;
  while (Date.now() < deadline) {
    total = (await getJson(server, `${followed}/followers`)).totalItems;
    if (total >= count) {
      return total;
    }
    await sleep(POLL_MS);
  }
  throw new Error(`followers of ${followed}: ${total} of ${count} after the time bound`);
}

async function startWorld(config) {
  const workDir = makeDataDir('scale-tls');
  const tls = makeTls(path.join(workDir, 'tls'));
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyFile = path.join(workDir, 'actors.pub.pem');
  fs.writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  // The sink only has to answer: checking Fedpod's Accepts would take CPU from Fedpod.
  const sinks = await startSinks({ tls, hosts: 1, processes: 1, publicKeyFile, verify: false, timeoutMs: config.startTimeout * 1000 });
  let server;
  try {
    server = await startHttpsFedpod({ tls, timeoutMs: config.startTimeout * 1000 });
    const famous = await signUp(server, 'famous', tls.caFile);
    const poster = await signUp(server, 'poster', tls.caFile);
    return { tls, sinks, server, famous, poster, privateKey, origin: sinks.hosts[0].origin,
      async stop() {
        await server.stop();
        await sinks.stop();
        destroyAgents();
      } };
  } catch (error) {
    if (server) {
      await server.stop();
    }
    await sinks.stop();
    throw error;
  }
}

async function measureSize(world, state, config, runEnd) {
  const { server, famous, poster } = world;
  const rows = {};
  const pageSpec = (collection) => {
    const { url, headers } = direct(server, `${collection}?page=true`);
    return { url, headers: { ...headers, accept: AP_JSON } };
  };
  const checkPage = async (collection) => {
    const page = await getJson(server, `${collection}?page=true`);
    if (!Array.isArray(page.orderedItems) || page.orderedItems.length === 0) {
      throw new Error(`GET ${collection}?page=true has no orderedItems`);
    }
    return page.orderedItems.length;
  };
  const run = async (id, label, collection) => {
    const items = await checkPage(collection);
    const summary = await measureScenario({}, { label: `${label} (${items} items)`, spec: pageSpec(collection), labelWidth: LABEL_WIDTH }, config);
    rows[id] = { kind: 'rate', reqPerSec: summary.reqPerSec, p99Ms: summary.latencyP99Ms, flagged: summary.flagged, problems: summary.problems };
  };
  await run('followers', 'followers page', famous.actorUrl + '/followers');
  await run('outbox', 'outbox first page', poster.actorUrl + '/outbox');
  const spec = pageSpec(`${poster.actorUrl}/outbox`);
  rows['outbox-uncached'] = await sampleRequests({
    url: spec.url, headers: spec.headers, samples: config.samples,
    deadline: Math.min(runEnd, Date.now() + config.duration * 3000),
    before: async () => {
      const post = outboxPost(server, poster.actorUrl, poster.token, `w${state.outbox}`);
      const res = await request(post.url, post);
      if (res.status !== 201) {
        throw new Error(`POST ${poster.actorUrl}/outbox answered ${res.status}: ${res.body.slice(0, 200)}`);
      }
      state.outbox += 1;
    },
  });
  log(`  ${'outbox page, after a POST'.padEnd(LABEL_WIDTH)} median ${formatNumber(rows['outbox-uncached'].medianMs)} ms, ` +
    `p90 ${formatNumber(rows['outbox-uncached'].p90Ms)} ms (${rows['outbox-uncached'].samples} single requests)`);
  return rows;
}

/** Grow both collections to `size` x their factors; resolves to '' or why it stopped (time bound). */
async function growTo(world, state, size, config, deadline) {
  const { server, famous, poster, origin, privateKey } = world;
  const followers = Math.round(size * config.followersPerSize);
  const outbox = Math.round(size * config.outboxPerSize);
  if (followers > state.followers) {
    const first = state.followers;
    const result = await grow({ label: 'Follows', count: followers - first, connections: config.seedConnections, deadline, expected: [202],
      makeRequest: (i) => followRequest(server, famous.actorUrl, origin, privateKey, first + i) });
    if (result.stopped) {
      return result.stopped;
    }
    const total = await waitForFollowers(server, famous.actorUrl, followers, deadline);
    state.followers = followers;
    log(`  ${followers - first} Follows accepted and processed in ${((Date.now() - state.mark) / 1000).toFixed(1)} s; followers: ${total}`);
  }
  if (outbox > state.outbox) {
    const first = state.outbox;
    const started = Date.now();
    const result = await grow({ label: 'outbox POSTs', count: outbox - first, connections: config.seedConnections, deadline,
      makeRequest: (i) => outboxPost(server, poster.actorUrl, poster.token, `seed ${first + i}`) });
    state.outbox += result.done;
    log(`  ${result.done} outbox POSTs in ${((Date.now() - started) / 1000).toFixed(1)} s (${result.perSec.toFixed(0)}/s)`);
    if (result.stopped) {
      return result.stopped;
    }
  }
  return '';
}

/** Every size. Never throws: a failure is { unavailable }, a size out of time { skipped }. */
async function runCollections(config, runEnd) {
  const outcome = { sizes: {}, info: {} };
  const target = { ...COLLECTIONS_TARGET, start: async () => startWorld(config) };
  await withTargetSession(target, {}, outcome, async (world) => {
    outcome.info = { famous: world.famous.actorUrl, poster: world.poster.actorUrl, log: world.server.logFile,
      followersPerSize: config.followersPerSize, outboxPerSize: config.outboxPerSize };
    const state = { followers: 0, outbox: 0, mark: 0, measureMs: 0 };
    let stopped = '';
    for (const size of config.sizes) {
      if (stopped) {
        outcome.sizes[size] = { skipped: stopped };
        continue;
      }
      log(` -- collections at ${size}: ${Math.round(size * config.followersPerSize)} followers, ` +
        `${Math.round(size * config.outboxPerSize)} outbox activities`);
      state.mark = Date.now();
      // Seeding also leaves room for measuring: twice what the previous size's measurements took.
      stopped = await growTo(world, state, size, config, runEnd() - 2 * state.measureMs);
      if (stopped) {
        log(`  n/a (time bound): ${stopped}`);
        outcome.sizes[size] = { skipped: stopped };
        continue;
      }
      const counts = { followers: state.followers, outbox: state.outbox };
      const measureStarted = Date.now();
      outcome.sizes[size] = { ...counts, rows: await measureSize(world, state, config, runEnd()) };
      state.measureMs = Date.now() - measureStarted;
    }
  });
  return outcome;
}

module.exports = { runCollections, COLLECTIONS_TARGET };
