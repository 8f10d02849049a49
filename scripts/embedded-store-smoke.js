#!/usr/bin/env node
// Smoke test + throughput figure for the embedded store, from the BUILT code
// (run `npx tsc -p tsconfig.json` first). Starts the store in a worker thread,
// as `fedpod start` would, on a temporary data dir, then measures with autocannon:
//   1. acknowledged (fsynced) SPARQL updates/s through HTTP, 10 connections;
//   2. SELECT-by-subject/s through HTTP, 10 connections;
//   3. restart (recovery) time and that every acknowledged update survived.
// Usage: node scripts/embedded-store-smoke.js [seconds per phase, default 10]
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { startEmbeddedStoreWorker } = require('../dist/storage/embedded');

const seconds = Number(process.argv[2] ?? 10);
const auth = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const EX = 'http://example.org/';

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function count(datasetUrl) {
  const response = await fetch(datasetUrl, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
    body: 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }',
  });
  return Number((await response.json()).results.bindings[0].n.value);
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'fedpod-embedded-smoke-'));
  let store = await startEmbeddedStoreWorker({ port: 0, dataDir });
  try {
    const created = await fetch(`${store.url}/$/datasets`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'dbName=localData&dbType=tdb2',
    });
    if (created.status !== 200) {
      throw new Error(`create dataset: ${created.status}`);
    }
    const datasetUrl = `${store.url}/localData`;

    let next = 0;
    const updates = await run({
      url: datasetUrl,
      connections: 10,
      duration: seconds,
      requests: [{
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/sparql-update' },
        setupRequest: (request) => {
          const id = next++;
          return {
            ...request,
            body: `INSERT DATA { GRAPH <${EX}doc/${id}> { <${EX}doc/${id}> <${EX}title> "Document ${id}" ; <${EX}n> ${id} } }`,
          };
        },
      }],
    });
    console.log(`updates (fsynced acks): ${updates.requests.average.toFixed(0)} req/s avg, ` +
      `p50 ${updates.latency.p50} ms, p99 ${updates.latency.p99} ms, non-2xx ${updates.non2xx}, errors ${updates.errors}`);
    const acknowledged = updates['2xx'];

    const subjects = Math.max(next, 1);
    const selects = await run({
      url: datasetUrl,
      connections: 10,
      duration: seconds,
      requests: [{
        method: 'GET',
        headers: { authorization: auth, accept: 'application/sparql-results+json' },
        setupRequest: (request) => {
          const id = Math.floor(Math.random() * subjects);
          const query = `SELECT ?p ?o WHERE { <${EX}doc/${id}> ?p ?o }`;
          return { ...request, path: `/localData/query?query=${encodeURIComponent(query)}` };
        },
      }],
    });
    console.log(`SELECT by subject: ${selects.requests.average.toFixed(0)} req/s avg, ` +
      `p50 ${selects.latency.p50} ms, p99 ${selects.latency.p99} ms, non-2xx ${selects.non2xx}, errors ${selects.errors}`);

    const quadsBefore = await count(datasetUrl);
    await store.stop();
    const began = Date.now();
    store = await startEmbeddedStoreWorker({ port: 0, dataDir });
    const recoveredIn = Date.now() - began;
    const quadsAfter = await count(`${store.url}/localData`);
    console.log(`restart: ${recoveredIn} ms for ${quadsAfter} quads (${acknowledged} acknowledged updates); ` +
      `quads before ${quadsBefore}, after ${quadsAfter} -> ${quadsBefore === quadsAfter ? 'OK' : 'MISMATCH'}`);
    if (quadsBefore !== quadsAfter || quadsAfter < acknowledged * 2) {
      process.exitCode = 1;
    }
  } finally {
    await store.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
