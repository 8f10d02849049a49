'use strict';

// Fedpod for the federation benchmark: `fedpod start --config activitypub`
// behind the bench's HTTPS proxy (base URL https://localhost:<proxy port>/),
// trusting the run's CA, plus the few things the bench does to it: sign up,
// seed followers straight into its store, post a Note to the outbox, and count
// what its inbox queue has processed.

const path = require('node:path');
const { freePort } = require('../../lib/ports');
const { request, basicAuth } = require('../../lib/http');
const { startServer } = require('../../lib/process');
const { FEDPOD_BIN, makeDataDir } = require('../../lib/fedpod');
const { startHttpsProxy } = require('./https-proxy');
const { httpsRequest, tlsEnv } = require('./tls');

const FEDPOD_ROOT = path.resolve(path.dirname(FEDPOD_BIN), '..');
const STORE_USER = { user: 'admin', password: 'admin' };
const DATASET = 'localData';
const AS = 'https://www.w3.org/ns/activitystreams#';
const FEDPOD_NS = 'urn:fedpod:ns:';
const ADDED_AT = `${FEDPOD_NS}addedAt`;
const REMOTE_ACTORS_GRAPH = 'urn:fedpod:graph:remote-actors';
const XSD_DATETIME = 'http://www.w3.org/2001/XMLSchema#dateTime';
const SEED_CHUNK = 500;

/**
 * Proxy on a kernel-chosen port P, then `fedpod start --port F --base-url
 * https://localhost:P/ --allow-private-network` (NODE_EXTRA_CA_CERTS = the CA),
 * ready when http://localhost:F/healthz answers 200.
 */
async function startHttpsFedpod({ tls, timeoutMs, extraArgs = [], env = {}, nodeArgs = [] }) {
  const port = await freePort();
  const storePort = await freePort();
  const proxy = await startHttpsProxy({ targetPort: port, certFile: tls.certFile, keyFile: tls.keyFile });
  const args = [
    ...nodeArgs, FEDPOD_BIN, 'start', '--config', 'activitypub', '--port', String(port), '--base-url', proxy.url,
    '--data-dir', makeDataDir('federation'), '--store-port', String(storePort), '--allow-private-network',
    ...extraArgs,
  ];
  let handle;
  try {
    handle = await startServer({
      name: 'fedpod', args, cwd: FEDPOD_ROOT, env: { ...tlsEnv(tls), ...env },
      readyUrl: `http://localhost:${port}/healthz`, timeoutMs,
    });
  } catch (error) {
    await proxy.stop();
    throw error;
  }
  return {
    baseUrl: proxy.url,
    publicHost: proxy.host,
    port,
    storePort,
    startMs: handle.startMs,
    logFile: handle.logFile,
    pid: handle.pid,
    flags: args.slice(nodeArgs.length + 2).join(' '),
    async stop() {
      await handle.stop();
      await proxy.stop();
    },
  };
}

async function expectJson(res, what, statuses) {
  if (!statuses.includes(res.status)) {
    throw new Error(`${what} answered ${res.status} (expected ${statuses.join('/')}): ${res.body.slice(0, 300).replace(/\s+/g, ' ')}`);
  }
  try {
    return JSON.parse(res.body);
  } catch {
    throw new Error(`${what} answered ${res.status} without JSON: ${res.body.slice(0, 200)}`);
  }
}

/** POST {base}auth/signup through the proxy; resolves to { token, actorUrl }. */
async function signUp(fedpod, username, caFile) {
  const url = `${fedpod.baseUrl}auth/signup`;
  const res = await httpsRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'benchmark-pass' }),
  }, caFile);
  const answer = await expectJson(res, `POST ${url}`, [201]);
  if (typeof answer.token !== 'string' || typeof answer.webId !== 'string') {
    throw new Error(`POST ${url} answered without token and webId: ${res.body.slice(0, 200)}`);
  }
  const actor = new URL(answer.webId);
  actor.hash = '';
  return { token: answer.token, actorUrl: actor.href };
}

/** The actor document (through the proxy): its publicKey id and PEM, for the sinks. */
async function actorKey(actorUrl, caFile) {
  const res = await httpsRequest(actorUrl, { headers: { accept: 'application/activity+json' } }, caFile);
  const actor = await expectJson(res, `GET ${actorUrl}`, [200]);
  if (!actor.publicKey || typeof actor.publicKey.publicKeyPem !== 'string') {
    throw new Error(`GET ${actorUrl}: no publicKey.publicKeyPem`);
  }
  return { keyId: actor.publicKey.id, pem: actor.publicKey.publicKeyPem };
}

function iri(value) {
  return `<${value}>`;
}

async function storeUpdate(fedpod, update) {
  const url = `http://127.0.0.1:${fedpod.storePort}/${DATASET}/update`;
  const res = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicAuth(STORE_USER.user, STORE_USER.password),
    },
    body: `update=${encodeURIComponent(update)}`,
    timeoutMs: 60000,
  });
  if (res.status < 200 || res.status > 299) {
    throw new Error(`store update answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
}

async function storeSelectNumber(fedpod, query) {
  const url = `http://127.0.0.1:${fedpod.storePort}/${DATASET}/query`;
  const res = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/sparql-results+json',
      authorization: basicAuth(STORE_USER.user, STORE_USER.password),
    },
    body: `query=${encodeURIComponent(query)}`,
  });
  if (res.status !== 200) {
    throw new Error(`store query answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
  const binding = JSON.parse(res.body).results.bindings[0];
  return binding && binding.n ? Number(binding.n.value) : 0;
}

/**
 * Followers written straight into the store, in Fedpod's layout: the collection (graph
 * {actor}/followers: `<coll> as:items <f>`, `<f> fedpod:addedAt <time>`) and, unless
 * `firstContact`, each follower's inbox and shared inbox as its Follow leaves them (verifying the
 * Follow's signature fetched the follower's actor document; graph urn:fedpod:graph:remote-actors).
 * Fedpod's memory holds none of them: the first post is a fan-out right after a start. With
 * `firstContact`, Fedpod has never seen the followers and must fetch every actor document.
 */
async function seedFollowers(fedpod, actorUrl, followers, firstContact = false) {
  const collection = `${actorUrl}/followers`;
  const base = Date.now();
  for (let start = 0; start < followers.length; start += SEED_CHUNK) {
    const chunk = followers.slice(start, start + SEED_CHUNK);
    const triples = chunk.map((follower, offset) => {
      const at = new Date(base + start + offset).toISOString();
      return `${iri(collection)} ${iri(`${AS}items`)} ${iri(follower.id)} .\n` +
        `${iri(follower.id)} ${iri(ADDED_AT)} "${at}"^^${iri(XSD_DATETIME)} .`;
    });
    let update = `INSERT DATA { GRAPH ${iri(collection)} {\n${triples.join('\n')}\n} }`;
    if (!firstContact) {
      const checked = `"${new Date().toISOString()}"^^${iri(XSD_DATETIME)}`;
      const endpoints = chunk.map((follower) => `${iri(follower.id)} ${iri(`${FEDPOD_NS}inbox`)} ${iri(follower.inbox)} ; ` +
        `${iri(`${FEDPOD_NS}checkedAt`)} ${checked}` +
        `${follower.sharedInbox ? ` ; ${iri(`${FEDPOD_NS}sharedInbox`)} ${iri(follower.sharedInbox)}` : ''} .`);
      update += ` ;\nINSERT DATA { GRAPH ${iri(REMOTE_ACTORS_GRAPH)} {\n${endpoints.join('\n')}\n} }`;
    }
    await storeUpdate(fedpod, update);
  }
}

/** totalItems of GET {actor}/followers (through the proxy). */
async function followerCount(actorUrl, caFile) {
  const res = await httpsRequest(`${actorUrl}/followers`, { headers: { accept: 'application/activity+json' } }, caFile);
  const json = await expectJson(res, `GET ${actorUrl}/followers`, [200]);
  return json.totalItems;
}

/**
 * POST a Note addressed to the actor's followers to its outbox (through the
 * proxy). Resolves to { status, at (epoch ms when the answer was complete), ms, location }.
 */
async function postNote(actorUrl, token, content, caFile) {
  const started = performance.now();
  const res = await httpsRequest(`${actorUrl}/outbox`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/ld+json' },
    body: JSON.stringify({ type: 'Note', content, to: [`${actorUrl}/followers`] }),
    timeoutMs: 60000,
  }, caFile);
  const ended = performance.now();
  if (res.status !== 201) {
    throw new Error(`POST ${actorUrl}/outbox answered ${res.status}: ${res.body.slice(0, 300)}`);
  }
  return { status: res.status, at: performance.timeOrigin + ended, ms: ended - started, location: res.headers.location };
}

/** Items in the actor's inbox collection: activities the inbox queue has fully processed. */
function inboxCount(fedpod, actorUrl) {
  const inbox = `${actorUrl}/inbox`;
  return storeSelectNumber(fedpod,
    `SELECT (COUNT(?item) AS ?n) WHERE { GRAPH ${iri(inbox)} { ${iri(inbox)} ${iri(`${AS}items`)} ?item } }`);
}

module.exports = {
  startHttpsFedpod, signUp, actorKey, seedFollowers, followerCount, postNote, inboxCount,
};
