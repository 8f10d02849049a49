'use strict';

const path = require('node:path');
const { freePort } = require('../lib/ports');
const { request, expectStatus } = require('../lib/http');
const { startServer } = require('../lib/process');
const { fedpodCommand, startFedpod } = require('../lib/fedpod');
const { TARGETS: LDP_TARGETS } = require('../ldp/targets');
const { SCENARIOS, problemWithFedpodAnswer, ACTIVITY_JSON, JSON_LD } = require('./scenarios');
const { rebase, cssJsonLd, documentId } = require('./documents');

const STATIC_SERVER = path.join(__dirname, 'static-server.js');
const SIGNUP = { username: 'bench', email: 'bench@example.com', password: 'benchmark-pass' };

// Each target has start(config) -> session { baseUrl, info, stop(), storeStats? }
// (as in bench/ldp) and prepare(session, documents) -> { scenarios, documents? }
// where scenarios[id] is { spec, contentType, bytes } or { skipped: reason }.
// A throw from either becomes a "not available: <reason>" column.

function firstLine(error) {
  return String(error && error.message ? error.message : error).split('\n')[0];
}

// Stock CSS is started exactly as the LDP benchmark starts it.
function ldpStart(id) {
  const target = LDP_TARGETS.find((candidate) => candidate.id === id);
  if (!target) {
    throw new Error(`bench/ldp/targets.js has no target ${id}`);
  }
  return target.start;
}

// ---------- Fedpod ----------

async function startFedpodActivityPub({ startTimeout }, root = undefined) {
  const cli = await fedpodCommand('start', root);
  if (!cli.ok) {
    throw new Error(cli.reason);
  }
  const [port, storePort] = [await freePort(), await freePort()];
  const fedpod = await startFedpod({
    config: 'activitypub', port, storePort, timeoutMs: startTimeout * 1000, ...root ? { root, name: 'fedpod-baseline' } : {},
  });
  return {
    baseUrl: fedpod.baseUrl,
    info: { config: 'activitypub', startMs: fedpod.startMs, log: fedpod.logFile, ...root ? { root } : {} },
    stop: fedpod.stop,
  };
}

// BENCH_BASELINE_ROOT: another built checkout (e.g. the previous release) measured in the same run.
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT ? path.resolve(process.env.BENCH_BASELINE_ROOT) : undefined;

async function signUp(baseUrl) {
  const url = `${baseUrl}auth/signup`;
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(SIGNUP),
  });
  if (res.status !== 201) {
    throw new Error(`POST ${url} answered ${res.status} (expected 201): ${res.body.slice(0, 200).replace(/\s+/g, ' ')}`);
  }
  let answer;
  try {
    answer = JSON.parse(res.body);
  } catch {
    throw new Error(`POST ${url} answered 201 without JSON: ${res.body.slice(0, 200)}`);
  }
  if (typeof answer.webId !== 'string') {
    throw new Error(`POST ${url} answered 201 without a webId: ${res.body.slice(0, 200)}`);
  }
  const actor = new URL(answer.webId, baseUrl);
  actor.hash = '';
  return { webId: answer.webId, actorUrl: actor.href, token: answer.token };
}

// One public note in the outbox: the outbox page then lists an item, and the note is scenario (d).
async function postPublicNote(actorUrl, token) {
  const url = `${actorUrl}/outbox`;
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/ld+json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note',
      content: 'A public note of the benchmark account.', to: ['https://www.w3.org/ns/activitystreams#Public'] }),
  });
  if (res.status !== 201) {
    throw new Error(`POST ${url} answered ${res.status} (expected 201): ${res.body.slice(0, 200)}`);
  }
  return JSON.parse(res.body).object.id;
}

// Sign up, then fetch and check every scenario's answer. A scenario whose
// endpoint is missing or answers something else is skipped (with the reason);
// the answers that are right become the documents the other targets serve.
async function prepareFedpod(session) {
  const { webId, actorUrl, token } = await signUp(session.baseUrl);
  session.info.webId = webId;
  const prepared = { noteUrl: await postPublicNote(actorUrl, token) };
  const scenarios = {};
  const documents = {};
  for (const scenario of SCENARIOS) {
    const url = scenario.fedpodUrl(actorUrl, prepared);
    const headers = { accept: ACTIVITY_JSON };
    const res = await request(url, { headers });
    const problem = problemWithFedpodAnswer(scenario, res, actorUrl);
    if (problem) {
      scenarios[scenario.id] = { skipped: `GET ${url} ${problem}` };
      continue;
    }
    const contentType = res.headers['content-type'];
    scenarios[scenario.id] = { spec: { url, headers }, contentType, bytes: Buffer.byteLength(res.body) };
    documents[scenario.id] = { text: res.body, contentType, baseUrl: session.baseUrl, source: 'fedpod' };
  }
  return { scenarios, documents };
}

// ---------- copies of the documents (bare Node, stock CSS) ----------

// Store every scenario's document on the target, then check one GET of it;
// a document that cannot be stored or read back skips just that scenario.
async function prepareCopies(session, documents, { store, accept, verify }) {
  const scenarios = {};
  for (const scenario of SCENARIOS) {
    const url = `${session.baseUrl}${scenario.copyPath}`;
    try {
      const document = documents[scenario.id];
      const text = rebase(document.text, document.baseUrl, session.baseUrl);
      await store(url, text, document);
      const headers = { accept };
      const res = await expectStatus(url, { headers }, [200]);
      verify(res, text, url);
      scenarios[scenario.id] = {
        spec: { url, headers }, contentType: res.headers['content-type'], bytes: Buffer.byteLength(res.body),
      };
    } catch (error) {
      scenarios[scenario.id] = { skipped: firstLine(error) };
    }
  }
  return { scenarios };
}

async function startBare({ startTimeout }) {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}/`;
  const handle = await startServer({
    name: 'bare-static',
    args: [STATIC_SERVER, '--port', String(port)],
    readyUrl: `${baseUrl}healthz`,
    timeoutMs: startTimeout * 1000,
  });
  return { baseUrl, info: { pid: handle.pid, log: handle.logFile }, stop: handle.stop };
}

// Bare Node serves Fedpod's exact bytes and Content-Type (only the base URL differs).
function prepareBare(session, documents) {
  return prepareCopies(session, documents, {
    accept: ACTIVITY_JSON,
    store: (url, text, document) => expectStatus(url, {
      method: 'PUT', headers: { 'content-type': document.contentType }, body: text,
    }, [201, 204]),
    verify: (res, text, url) => {
      if (res.body !== text) {
        throw new Error(`GET ${url} did not answer the stored bytes`);
      }
    },
  });
}

// Stock CSS gets the same document as application/ld+json (security context
// inlined, see documents.js) and answers it as JSON-LD: as stored on the
// memory backend, re-serialized from the store's triples on the SPARQL one.
function prepareCss(session, documents) {
  return prepareCopies(session, documents, {
    accept: JSON_LD,
    store: (url, text) => expectStatus(url, {
      method: 'PUT', headers: { 'content-type': JSON_LD }, body: cssJsonLd(text),
    }, [200, 201, 204, 205]),
    verify: (res, text, url) => {
      const id = documentId(text);
      if (id && !res.body.includes(id)) {
        throw new Error(`GET ${url} answered JSON-LD without the document's id ${id}: ${res.body.slice(0, 160)}`);
      }
      if (text.includes('BEGIN PUBLIC KEY') && !res.body.includes('BEGIN PUBLIC KEY')) {
        throw new Error(`GET ${url} answered the actor without its public key`);
      }
    },
  });
}

// Column order of the table; Fedpod is always run first (see run.js).
const TARGETS = [
  {
    id: 'bare', label: 'bare', description: 'node:http, Fedpod\'s answers as bytes in memory (bench/actors/static-server.js)',
    start: startBare, prepare: prepareBare,
  },
  {
    id: 'css-memory', label: 'CSS-mem', description: 'stock CSS, @css:config/default.json (memory)',
    start: ldpStart('css-memory'), prepare: prepareCss,
  },
  {
    id: 'css-sparql', label: 'CSS-sparql', description: 'stock CSS, @css:config/sparql-endpoint-root.json',
    start: ldpStart('css-sparql'), prepare: prepareCss,
  },
  {
    id: 'fedpod', label: 'Fedpod', description: 'fedpod start --config activitypub (embedded store)',
    start: startFedpodActivityPub, prepare: prepareFedpod,
  },
].concat(BASELINE_ROOT ? [{
  id: 'fedpod-baseline', label: 'Fedpod-base', description: `fedpod start --config activitypub from ${BASELINE_ROOT} (BENCH_BASELINE_ROOT)`,
  start: (config) => startFedpodActivityPub(config, BASELINE_ROOT), prepare: prepareFedpod,
}] : [])

module.exports = { TARGETS };
