#!/usr/bin/env node
'use strict';

// The web app's home timeline page beside the Mastodon API's home timeline, for the same user and
// the same 20 statuses, in one run: the page is built on the same services, so it should cost at
// most twice the API's answer (the HTML rendering on top).
//   node bench/pages/run.js                     (about 1 minute)
// Knobs: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS (bench/lib/config.js), BENCH_PAGES_POSTS
// (statuses posted before measuring; default 40).

const { loadConfig } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { startFedpod } = require('../lib/fedpod');
const { request } = require('../lib/http');
const { json, posterAndReader } = require('../lib/accounts');
const { formatRatio } = require('../lib/report');
const { log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, measureScenario } = require('../lib/runner');
const { sleep } = require('../lib/process');

const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const LABEL_WIDTH = 36;
// The page may take at most this many times the API's time (compared as requests per second).
const PAGE_LIMIT = 2;

async function main() {
  const config = loadConfig();
  const posts = Number(process.env.BENCH_PAGES_POSTS || 40);
  const { machineAtStart } = startRun(config, { name: 'pages' });
  log(`Web app pages benchmark: ${config.connections} connections, ${config.duration} s per scenario, ${posts} statuses`);
  const [port, storePort] = [await freePort(), await freePort()];
  const server = await startFedpod({ name: 'fedpod-ap', config: 'activitypub', port, storePort, timeoutMs: config.startTimeout * 1000 });
  const results = {};
  try {
    const baseUrl = server.baseUrl;
    const { poster, reader } = await posterAndReader(baseUrl);
    for (let i = 0; i < posts; i += 1) {
      await json(`${poster.actor}/outbox`, { method: 'POST', headers: { authorization: `Bearer ${poster.token}`, 'content-type': 'application/activity+json' },
        body: JSON.stringify({ '@context': AS_CONTEXT, type: 'Note', content: `<p>status ${i} with a <a href="https://example.org/">link</a></p>`,
          to: [AS_PUBLIC], cc: [`${poster.actor}/followers`], ...i % 5 === 0 ? { summary: 'a warning' } : {} }) }, [201]);
    }
    const deadline = Date.now() + 120000;
    const api = { url: `${baseUrl}api/v1/timelines/home?limit=20`, headers: { authorization: `Bearer ${reader.token}` } };
    while ((await json(api.url, { headers: api.headers }, [200])).length < 20) {
      if (Date.now() > deadline) {
        throw new Error('the statuses did not reach the reader\'s home timeline in time');
      }
      await sleep(250);
    }
    const page = { url: `${baseUrl}web/home`, headers: { accept: 'text/html', cookie: `fedpod_web_session=${reader.token}` } };
    const check = await request(page.url, { headers: page.headers, timeoutMs: 60000 });
    if (check.status !== 200 || (check.body.match(/<article class="status"/g) || []).length !== 20) {
      throw new Error(`GET /web/home answered ${check.status} without 20 statuses`);
    }
    log(`  up at ${baseUrl}; the reader's home has 20 statuses on the page and in the API`);
    results.api = await measureScenario({}, { label: 'GET /api/v1/timelines/home (20)', spec: api, labelWidth: LABEL_WIDTH }, config);
    results.page = await measureScenario({}, { label: 'GET /web/home (20, HTML)', spec: page, labelWidth: LABEL_WIDTH }, config);
  } finally {
    await server.stop();
  }
  const ratio = results.page && results.api && results.page.reqPerSec > 0 ? results.api.reqPerSec / results.page.reqPerSec : null;
  const met = ratio === null ? null : ratio <= PAGE_LIMIT;
  const checks = [{ label: 'home timeline page vs the API\'s home timeline: time per request', goal: `<= ${PAGE_LIMIT}x`,
    measured: ratio === null ? '' : `${ratio.toFixed(2)}x`, met, reason: '' }];
  log(`\nIn the same run:\n  page time / API time: ${formatRatio(ratio)}`);
  log(`\nTargets:\n${checks.map((entry) => `  [${entry.met === null ? 'UNKNOWN' : entry.met ? 'MET' : 'NOT MET'}] ${entry.label}: ` +
    `goal ${entry.goal}, measured ${entry.measured}`).join('\n')}`);
  warnIfBusy('\n');
  saveResults('pages', { settings: { ...config, posts }, machineAtStart, results, checks });
  return strictExitCode(checks);
}

runMain('bench/pages', main);
