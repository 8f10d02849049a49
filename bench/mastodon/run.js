#!/usr/bin/env node
'use strict';

// Mastodon client API benchmark: what apps call most, beside Fedpod's own way of doing the same in
// the same run, and how the home timeline's cost moves as the store grows and as the reader follows
// more accounts.
//   node bench/mastodon/run.js                        (about 15 minutes: writing 100,000 statuses takes most)
//   BENCH_MASTODON_SIZES=1000,20000 node bench/mastodon/run.js
// Knobs: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS (bench/lib/config.js), BENCH_MASTODON_SIZES
// (statuses in the poster's outbox, each in the reader's inbox, at which the home timeline is
// measured; default 1000,100000: written straight into the store, see seed.js),
// BENCH_MASTODON_FOLLOWED (accounts a reader follows, whose statuses fill their home timeline;
// default 10,1000; empty: not measured).

const { loadConfig, readList } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { startFedpod } = require('../lib/fedpod');
const { json, posterAndReader, signUp } = require('../lib/accounts');
const { request } = require('../lib/http');
const { formatNumber, formatRatio } = require('../lib/report');
const { log, startRun, runMain, strictExitCode, saveResults, warnIfBusy, measureScenario } = require('../lib/runner');
const { sleep } = require('../lib/process');
const { sampleRequests } = require('../scale/measure');
const { statusTemplate, seedStatuses, seedItems } = require('./seed');

const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const LABEL_WIDTH = 36;
// The home timeline's cost may grow at most this much from the smallest size to the largest.
const GROWTH_LIMIT = 1.5;
// Statuses in the home timeline of each reader of the followed-accounts comparison.
const FOLLOWED_STATUSES = 2000;
// Longer than a node trusts the head bucket of a list it knows (MemberIndex: 10 s): statuses written
// into the store moved the lists' buckets, so the server must read them again before the next post.
const HEAD_TTL_WAIT_MS = 11000;

/** Store requests the server made so far, by operation, from its metrics (for store round trips per request). */
async function storeStats(baseUrl) {
  const res = await request(`${baseUrl}metrics`, {});
  const stats = {};
  for (const match of res.body.matchAll(/^fedpod_store_request_duration_seconds_count\{([^}]*)\} (\d+)/gmu)) {
    const operation = /operation="(\w+)"/u.exec(match[1]);
    if (operation) {
      stats[operation[1]] = (stats[operation[1]] || 0) + Number(match[2]);
    }
  }
  return stats;
}

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
  const sizes = (readList('BENCH_MASTODON_SIZES') || ['1000', '100000'])
    .map(Number).filter((size) => Number.isInteger(size) && size > 0).sort((a, b) => a - b);
  // Set but empty: no followed-accounts comparison.
  const followed = (process.env.BENCH_MASTODON_FOLLOWED === '' ? [] : readList('BENCH_MASTODON_FOLLOWED') || ['10', '1000'])
    .map(Number).filter((count) => Number.isInteger(count) && count > 0).sort((a, b) => a - b);
  const { machineAtStart } = startRun(config, { name: 'mastodon' });
  log(`Mastodon client API benchmark: ${config.connections} connections, ${config.duration} s per scenario, ` +
    `home timeline at ${sizes.join(', ')} statuses and ${followed.join(', ') || 'no'} followed accounts`);
  const [port, storePort] = [await freePort(), await freePort()];
  const server = await startFedpod({ name: 'fedpod-ap', config: 'activitypub', port, storePort, timeoutMs: config.startTimeout * 1000,
    extraArgs: ['--metrics'] });
  const results = {};
  const growth = {};
  const followedResults = {};
  try {
    const baseUrl = server.baseUrl;
    const session = { storeStats: async () => storeStats(baseUrl) };
    let oldest = new Date();
    const { poster, reader } = await posterAndReader(baseUrl);
    const note = await json(`${poster.actor}/outbox`, outboxPost(poster, 'the note read by the baseline'), [201]);
    const noteUrl = note.object && note.object.id ? note.object.id : note.object;
    await waitForDelivery(baseUrl, reader, 'the note read by the baseline', Date.now() + 60000);
    // The note, as stored and delivered, is the template of every status written into the store.
    const template = await statusTemplate(storePort, note.id, noteUrl);
    log(`  up at ${baseUrl}; reader follows poster; note ${noteUrl} (${template.rows.length} quads as stored)`);

    const readerAuth = { authorization: `Bearer ${reader.token}` };
    const scenarios = [
      ['get-note', 'GET one note (ActivityStreams)', { url: noteUrl, headers: { accept: 'application/activity+json' } }],
      ['outbox-post', 'POST a Note to the outbox', { ...outboxPost(poster, 'x'), makeBody: (i) => outboxPost(poster, `outbox ${i}`).body }],
      ['status-post', 'POST /api/v1/statuses', { ...statusPost(baseUrl, poster, 'x'), makeBody: (i) => statusPost(baseUrl, poster, `status ${i}`).body }],
    ];
    let posted = 1;
    const measureHome = async (size) => {
      const home = { url: `${baseUrl}api/v1/timelines/home?limit=20`, headers: readerAuth };
      const repeated = await measureScenario(session, { label: `home timeline at ${size} (same page)`, spec: home, labelWidth: LABEL_WIDTH }, config);
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
        // Older than everything the reader's inbox and the poster's outbox hold: as if posted before.
        const seeded = await seedStatuses(storePort, template, { count: missing, oldestBefore: oldest });
        oldest = seeded.oldest;
        posted += missing;
        await sleep(HEAD_TTL_WAIT_MS);
        const marker = `seeded ${size}`;
        await json(`${poster.actor}/outbox`, outboxPost(poster, marker), [201]);
        posted += 1;
        await waitForDelivery(baseUrl, reader, marker, Date.now() + 600000);
        log(`  ${missing} statuses (${seeded.quads} quads) written into the store in ${((Date.now() - started) / 1000).toFixed(1)} s`);
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

    // Readers who follow `count` accounts: their home timeline holds statuses of that many authors, round-robin.
    for (const count of followed) {
      const started = Date.now();
      const follower = await signUp(baseUrl, `reader${count}`);
      const authors = Array.from({ length: count }, (unused, i) => `${baseUrl}actors/author-${i}`);
      await seedItems(storePort, `${follower.actor}/following`, authors, new Date());
      const seeded = await seedStatuses(storePort, template, { count: FOLLOWED_STATUSES, oldestBefore: new Date(),
        skipGraphs: [`${poster.actor}/outbox`, `urn:fedpod:index:${poster.actor}/outbox`],
        renames: [[reader.actor, follower.actor]],
        authors: { poster: poster.actor, base: `${baseUrl}actors/`, count } });
      await sleep(HEAD_TTL_WAIT_MS);
      log(`  reader${count}: follows ${count} accounts, ${FOLLOWED_STATUSES} statuses (${seeded.quads} quads) written in ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`);
      const home = { url: `${baseUrl}api/v1/timelines/home?limit=20`, headers: { authorization: `Bearer ${follower.token}` } };
      const page = await json(home.url, { headers: home.headers }, [200]);
      log(`  ${`(${page.length} statuses of ${new Set(page.map((status) => status.account.id)).size} accounts a page)`}`);
      followedResults[count] = await measureScenario(session,
        { label: `home timeline, ${count} followed`, spec: home, labelWidth: LABEL_WIDTH }, config);
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
  if (followed.length > 1) {
    const fewest = followed[0];
    const most = followed[followed.length - 1];
    const of = (measured) => (measured.flagged ? NaN : measured.latencyP50Ms);
    const growthFactor = of(followedResults[most]) / of(followedResults[fewest]);
    const met = Number.isFinite(growthFactor) && growthFactor > 0 ? growthFactor <= GROWTH_LIMIT : null;
    checks.push({ label: `home timeline (same page) with ${most} vs ${fewest} followed accounts: median time`, goal: `<= ${GROWTH_LIMIT}x`,
      measured: met === null ? 'no valid measurement' : `${growthFactor.toFixed(2)}x`, met, reason: '' });
  }
  log(`\nTargets:\n${checks.map((check) => `  [${check.met === null ? 'UNKNOWN' : check.met ? 'MET' : 'NOT MET'}] ${check.label}: ` +
    `goal ${check.goal}, measured ${check.measured}`).join('\n') || '  (one size only: no growth goal checked)'}`);
  warnIfBusy('\n');
  saveResults('mastodon', { settings: { ...config, sizes, followed }, machineAtStart, results, growth, followed: followedResults, checks });
  return strictExitCode(checks);
}


runMain('bench/mastodon', main);
