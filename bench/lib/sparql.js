'use strict';

const path = require('node:path');
const { freePort } = require('./ports');
const { request, basicAuth } = require('./http');
const { startServer } = require('./process');
const { fedpodCommand, startFedpodStore } = require('./fedpod');

const DATASET = 'bench';
const ADMIN = { user: 'admin', password: 'admin' };
const FALLBACK_STORE = path.join(__dirname, 'sparql-store.js');
const ASK_ALL = 'ASK { ?s ?p ?o }';
const NO_OP_UPDATE = 'INSERT DATA { }';

// Fuseki-style dataset creation: POST /$/datasets with dbName and dbType.
// Admin credentials are sent even to stores that would not need them.
async function createDataset(baseUrl, dbType) {
  const res = await request(`${baseUrl}$/datasets`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basicAuth(ADMIN.user, ADMIN.password),
    },
    body: `dbName=${DATASET}&dbType=${dbType}`,
  });
  if (![200, 201, 204, 409].includes(res.status)) {
    throw new Error(`creating dataset answered ${res.status}: ${res.body.slice(0, 200)}`);
  }
}

// Status of an unauthenticated query and update on the single endpoint URL,
// exactly as CSS's SparqlDataAccessor would send them.
async function probeAnonymous(endpoint) {
  const query = await request(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: `query=${encodeURIComponent(ASK_ALL)}`,
  });
  const update = await request(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/sparql-update' },
    body: NO_OP_UPDATE,
  });
  return { query: query.status, update: update.status };
}

// CSS's SparqlDataAccessor sends its requests with Node's global fetch; see
// whether that fetch accepts an endpoint URL carrying user:password.
async function fetchAcceptsCredentialsInUrl(endpointWithCredentials) {
  try {
    await fetch(endpointWithCredentials, {
      method: 'POST',
      headers: { 'content-type': 'application/sparql-query' },
      body: ASK_ALL,
      signal: AbortSignal.timeout(5000),
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: error.message };
  }
}

const isOk = (status) => status >= 200 && status < 300;

// The endpoint URL CSS should use for this store, or a reason why none works.
async function endpointForCss(baseUrl) {
  const endpoint = `${baseUrl}${DATASET}`;
  const anonymous = await probeAnonymous(endpoint);
  if (isOk(anonymous.query) && isOk(anonymous.update)) {
    return { endpoint, note: 'anonymous queries and updates allowed' };
  }
  if (![401, 403].includes(anonymous.query) && !isOk(anonymous.query)) {
    throw new Error(`anonymous query on ${endpoint} answered ${anonymous.query}`);
  }
  const withCredentials = endpoint.replace('http://', `http://${ADMIN.user}:${ADMIN.password}@`);
  const check = await fetchAcceptsCredentialsInUrl(withCredentials);
  if (!check.ok) {
    throw new Error(`store needs credentials (anonymous query ${anonymous.query}, update ${anonymous.update}), ` +
      `but CSS's SPARQL fetcher (Node global fetch) rejects credentials in the endpoint URL: ${check.reason}`);
  }
  return { endpoint: withCredentials, note: 'basic auth credentials in the endpoint URL' };
}

async function startFedpodBackend(timeoutMs) {
  const cli = await fedpodCommand('store');
  if (!cli.ok) {
    throw new Error(`fedpod store not available: ${cli.reason}`);
  }
  const port = await freePort();
  const handle = await startFedpodStore({ port, help: cli.help, timeoutMs });
  try {
    await createDataset(handle.baseUrl, 'tdb2');
    const { endpoint, note } = await endpointForCss(handle.baseUrl);
    return { kind: 'fedpod-store', endpoint, note: `fedpod store ${handle.flags}; ${note}`, handles: [handle] };
  } catch (error) {
    await handle.stop();
    throw error;
  }
}

async function startFallbackBackend(timeoutMs) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/`;
  const handle = await startServer({
    name: 'oxigraph-store',
    args: [FALLBACK_STORE, '--port', String(port)],
    readyUrl: `${baseUrl}$/ping`,
    timeoutMs,
  });
  await createDataset(baseUrl, 'mem');
  return {
    kind: 'oxigraph-fallback',
    endpoint: `${baseUrl}${DATASET}`,
    statsUrl: `${baseUrl}$/stats`,
    note: 'bench/lib/sparql-store.js (Oxigraph in memory)',
    handles: [handle],
  };
}

/**
 * Start a SPARQL store for "CSS on SPARQL" targets.
 * mode: 'fedpod' (Fedpod's embedded store only), 'oxigraph' (bench stand-in
 * only) or 'auto' (Fedpod's store, else the stand-in; the reason is kept).
 * Resolves to { kind, endpoint, note, handles, fallbackReason? }.
 */
async function startSparqlBackend({ mode = 'auto', timeoutMs }) {
  if (mode === 'oxigraph') {
    return startFallbackBackend(timeoutMs);
  }
  try {
    return await startFedpodBackend(timeoutMs);
  } catch (error) {
    if (mode === 'fedpod') {
      throw error;
    }
    const backend = await startFallbackBackend(timeoutMs);
    return { ...backend, fallbackReason: error.message };
  }
}

// Request counts seen by the store ({ ASK, CONSTRUCT, SELECT, UPDATE, ... }),
// or null when the store does not expose them (only the stand-in does).
async function storeStats(backend) {
  if (!backend.statsUrl) {
    return null;
  }
  const res = await request(backend.statsUrl);
  return res.status === 200 ? JSON.parse(res.body) : null;
}

async function stopSparqlBackend(backend) {
  if (backend) {
    await Promise.all(backend.handles.map((handle) => handle.stop()));
  }
}

module.exports = { startSparqlBackend, stopSparqlBackend, storeStats, DATASET };
