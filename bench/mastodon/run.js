#!/usr/bin/env node
'use strict';

// Mastodon client API benchmark: what apps call most, beside Fedpod's own way of doing the same in
// the same run, and how the home timeline's cost moves as the store grows.
//   node bench/mastodon/run.js                        (about 3 minutes)
//   BENCH_MASTODON_SIZES=1000,100000 node bench/mastodon/run.js
// Knobs: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS (bench/lib/config.js), BENCH_MASTODON_SIZES
// (statuses in the poster's outbox, each delivered to the reader's inbox, at which the home timeline
// is measured; default 1000,10000).

const { loadConfig, readList } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { startFedpod } = require('../lib/fedpod');
const { json, posterAndReader } = require('../lib/accounts');
const { formatNumber, formatRatio } = require('../lib/report');
const { log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, measureScenario } = require('../lib/runner');
const { sleep } = require('../lib/process');
const { grow } = require('../scale/grow');
const { sampleRequests } = require('../scale/measure');

const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const LABEL_WIDTH = 36;
// The home timeline's cost may grow at most this much from the smallest size to the largest.
const GROWTH_LIMIT = 1.5;

function outboxPost(user, content) {
  return {
    url: `${user.actor}/outbox`, method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/activity+json' },
    body: JSON.stringify({ '@context': AS_CONTEXT, type: 'Note', content, to: [AS_PUBLIC], cc: [`${user.actor}/followers`] }),
  };
}

function statusPost(baseUrl, user, content) {
  return {
    url: `${baseUrl}api/v1/statuses`, method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: content, visibility: 'public' }),
  };
}

/** Waits until the reader's home timeline shows the poster's newest status (delivery runs after the 201s). */
async function waitForDelivery(baseUrl, reader, marker, deadline) {
  while (Date.now() < deadline) {
    const page = await json(`${baseUrl}api/v1/timelines/home?limit=1`, { headers: { authorization: `Bearer ${reader.token}` } }, [200]);
    if (page.length > 0 && page[0].content.includes(marker)) {
      return;
    }
    await sleep(250);
  }
  throw new Error(`the reader's home timeline did not show "${marker}" in time`);
}

async function main() {
  const config = loadConfig();
  const sizes = (readList('BENCH_MASTODON_SIZES') || ['1000', '10000'])
    .map(Number).filter((size) => Number.isInteger(size) && size > 0).sort((a, b) => a - b);
  const { machineAtStart } = startRun(config, { name: 'mastodon' });
  log(`Mastodon client API benchmark: ${config.connections} connections, ${config.duration} s per scenario, ` +
    `home timeline at ${sizes.join(', ')} statuses`);
  const [port, storePort] = [await freePort(), await freePort()];
  const server = await startFedpod({ name: 'fedpod-ap', config: 'activitypub', port, storePort, timeoutMs: config.startTimeout * 1000 });
  const results = {};
  const growth = {};
  try {
    const baseUrl = server.baseUrl;
    const { poster, reader } = await posterAndReader(baseUrl);
    const note = await json(`${poster.actor}/outbox`, outboxPost(poster, 'the note read by the baseline'), [201]);
    const noteUrl = note.object && note.object.id ? note.object.id : note.object;
    log(`  up at ${baseUrl}; reader follows poster; note ${noteUrl}`);

    const readerAuth = { authorization: `Bearer ${reader.token}` };
    const scenarios = [
      ['get-note', 'GET one note (ActivityStreams)', { url: noteUrl, headers: { accept: 'application/activity+json' } }],
      ['outbox-post', 'POST a Note to the outbox', { ...outboxPost(poster, 'x'), makeBody: (i) => outboxPost(poster, `outbox ${i}`).body }],
      ['status-post', 'POST /api/v1/statuses', { ...statusPost(baseUrl, poster, 'x'), makeBody: (i) => statusPost(baseUrl, poster, `status ${i}`).body }],
    ];
    let posted = 1;
    const measureHome = async (size) => {
      const home = { url: `${baseUrl}api/v1/timelines/home?limit=20`, headers: readerAuth };
      const repeated = await measureScenario({}, { label: `home timeline at ${size} (same page)`, spec: home, labelWidth: LABEL_WIDTH }, config);
      // One request right after a new status reached the reader: nothing kept from the request before can answer it.
      const fresh = await sampleRequests({
        url: home.url, headers: home.headers, samples: 20, deadline: Date.now() + config.duration * 3000,
        before: async (i) => {
          const marker = `fresh ${size} ${i}`;
          await json(`${poster.actor}/outbox`, outboxPost(poster, marker), [201]);
          await waitForDelivery(baseUrl, reader, marker, Date.now() + 60000);
        },
      });
      log(`  ${`home timeline at ${size}, after a post`.padEnd(LABEL_WIDTH)} median ${formatNumber(fresh.medianMs)} ms, ` +
        `p90 ${formatNumber(fresh.p90Ms)} ms (${fresh.samples} single requests)`);
      return { repeated, fresh };
    };

    for (const [index, size] of sizes.entries()) {
      const missing = size - posted;
      if (missing > 0) {
        const started = Date.now();
        const result = await grow({ label: 'outbox POSTs', count: missing, connections: 8, deadline: Infinity,
          makeRequest: (i) => outboxPost(poster, `seed ${posted + i}`) });
        posted += result.done;
        const marker = `seeded ${size}`;
        await json(`${poster.actor}/outbox`, outboxPost(poster, marker), [201]);
        posted += 1;
        await waitForDelivery(baseUrl, reader, marker, Date.now() + 600000);
        log(`  ${missing} statuses posted and delivered in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
      growth[size] = await measureHome(size);
      if (index === 0) {
        // The comparisons run once, at the smallest size.
        for (const [id, label, spec] of scenarios) {
          results[id] = await measureScenario({}, { label, spec, labelWidth: LABEL_WIDTH }, config);
        }
        results['home'] = growth[size].repeated;
      }
    }
  } finally {
    await server.stop();
  }

  const smallest = sizes[0];
  const largest = sizes[sizes.length - 1];
  const ratio = (top, bottom) => (top && bottom && top.reqPerSec > 0 && bottom.reqPerSec > 0 ? top.reqPerSec / bottom.reqPerSec : null);
  log('\nIn the same run:');
  log(`  home timeline (20 statuses) vs GET of one note: ${formatRatio(ratio(results.home, results['get-note']))}`);
  log(`  POST /api/v1/statuses vs outbox POST:           ${formatRatio(ratio(results['status-post'], results['outbox-post']))}`);
  const checks = [];
  if (largest !== smallest) {
    // A flagged measurement (errors, or no answer at all in the time given) is no time: never a goal met.
    const median = (measured) => (measured.flagged ? NaN : measured.latencyP50Ms);
    for (const [kind, of] of [['same page', (entry) => median(entry.repeated)], ['after a post', (entry) => entry.fresh.medianMs]]) {
      const growthFactor = of(growth[largest]) / of(growth[smallest]);
      const met = Number.isFinite(growthFactor) && growthFactor > 0 ? growthFactor <= GROWTH_LIMIT : null;
      checks.push({ label: `home timeline (${kind}) at ${largest} vs ${smallest} statuses: median time`, goal: `<= ${GROWTH_LIMIT}x`,
        measured: met === null ? 'no valid measurement' : `${growthFactor.toFixed(2)}x`, met, reason: '' });
    }
  }
  log(`\nTargets:\n${checks.map((check) => `  [${check.met === null ? 'UNKNOWN' : check.met ? 'MET' : 'NOT MET'}] ${check.label}: ` +
    `goal ${check.goal}, measured ${check.measured}`).join('\n') || '  (one size only: no growth goal checked)'}`);
  warnIfBusy('\n');
  saveResults('mastodon', { settings: { ...config, sizes }, machineAtStart, results, growth, checks });
  return strictExitCode(checks);
}


runMain('bench/mastodon', main);
