'use strict';

// The container part of bench/scale: one server per target, grown from size to size by POSTing
// notes into /notes/, and measured at each size (after a restart on the same data).

const { randomBytes } = require('node:crypto');
const { log, measureScenario, withTargetSession } = require('../lib/runner');
const { sleep, residentMb } = require('../lib/process');
const { formatNumber } = require('../lib/report');
const { expectStatus } = require('../lib/http');
const { noteBody } = require('../ldp/seed');
const { sampleRequests, fixedLoad, diskMb } = require('./measure');
const { grow } = require('./grow');
const { ensureContainer, JSON_LD } = require('./ldp-targets');

const RUN_TAG = randomBytes(4).toString('hex');
const IDLE_AFTER_START_MS = 1000;
const LABEL_WIDTH = 30;

function postSpec(containerUrl, content) {
  return { url: containerUrl, method: 'POST', headers: { 'content-type': JSON_LD }, body: noteBody(content) };
}

function rate(summary) {
  return { kind: 'rate', reqPerSec: summary.reqPerSec, p99Ms: summary.latencyP99Ms, flagged: summary.flagged,
    problems: summary.problems };
}

function logMs(label, result) {
  log(`  ${label.padEnd(LABEL_WIDTH)} median ${formatNumber(result.medianMs)} ms, p90 ${formatNumber(result.p90Ms)} ms ` +
    `(${result.samples} single requests, ${result.bytes} B)`);
}

/** The measurements at one size; `state` carries the note count and URLs from size to size. */
async function measureSize(session, state, config, runEnd) {
  const rows = {};
  const accept = { accept: JSON_LD };
  const write = async () => {
    await expectStatus(session.containerUrl, postSpec(session.containerUrl, `scale ${RUN_TAG} w${state.writes++}`), [201]);
    state.count += 1;
  };
  const run = (label, spec) => measureScenario({}, { label, spec, labelWidth: LABEL_WIDTH }, config);

  rows['get-note'] = rate(await run('GET one note', { url: state.noteUrl, headers: accept }));
  // Pages are timed one request at a time: a load run of a page that takes seconds (CSS) would time
  // out. Each row stops after BENCH_SCALE_SAMPLES requests or 3 x BENCH_DURATION s (at least 3).
  const pageRow = async (label, url, before) => {
    if (!before) {
      // Untimed: fills the page cache for the repeated GETs.
      await expectStatus(url, { headers: accept, timeoutMs: 120000 }, [200]);
    }
    const result = await sampleRequests({ url, headers: accept, samples: config.samples, before,
      deadline: Math.min(runEnd, Date.now() + config.duration * 3000) });
    logMs(label, result);
    return result;
  };
  // After a write: every write moves the container's modification date, which drops Fedpod's cached pages.
  rows['first-uncached'] = await pageRow('first page, after a write', session.containerUrl, write);
  rows['first-cached'] = await pageRow('first page, repeated', session.containerUrl);
  const last = await session.lastPage(session.containerUrl);
  state.pages = last.pages;
  log(`  last page: ${last.pages === 1 ? 'the container itself' : `${last.pages} pages in, ${last.url}`}`);
  rows['last-uncached'] = await pageRow('last page, after a write', last.url, write);
  rows['last-cached'] = await pageRow('last page, repeated', last.url);
  // A fixed number of POSTs: a timed load would add an unknown number of members.
  const posts = await fixedLoad({ count: config.posts, connections: config.connections,
    makeRequest: (i) => postSpec(session.containerUrl, `scale ${RUN_TAG} p${state.count}-${i}`) });
  state.count += posts.done;
  rows.post = { kind: 'rate', reqPerSec: posts.reqPerSec, p99Ms: null, flagged: posts.failed > 0,
    problems: posts.failed > 0 ? [`${posts.failed} failed: ${posts.firstProblem}`] : [] };
  log(`  ${'POST note'.padEnd(LABEL_WIDTH)} ${formatNumber(posts.reqPerSec).padStart(8)} req/s  ` +
    `(${posts.done} POSTs, ${config.connections} connections, median ${formatNumber(posts.medianMs)} ms)`);
  return rows;
}

/** Grow `session` to `size` notes. Resolves to '' or the reason it stopped (time bound). */
async function growTo(session, state, size, config, deadline) {
  const missing = size - state.count;
  if (missing <= 0) {
    return '';
  }
  const result = await grow({
    label: `${session.label} seeding`, count: missing, connections: config.seedConnections, deadline,
    makeRequest: (i) => postSpec(session.containerUrl, `seed ${RUN_TAG} ${state.count + i}`),
  });
  state.count += result.done;
  state.seedMs += result.ms;
  log(`  seeded ${result.done} notes in ${(result.ms / 1000).toFixed(1)} s (${result.perSec.toFixed(0)}/s), now ${state.count}`);
  return result.stopped;
}

/**
 * Every size for one target. `seedDeadline(state)` is when seeding must stop, `runEnd` when the
 * single-request rows stop early (epoch ms). Never throws:
 * a target that cannot start is { unavailable }, a size it cannot reach in time { skipped }.
 */
async function runLdpTarget(target, config, { seedDeadline, runEnd }) {
  const outcome = { sizes: {}, info: {} };
  await withTargetSession(target, { startTimeout: config.startTimeout }, outcome, async (session) => {
    outcome.info = { ...session.info(), paging: session.pagingNote, firstStartMs: session.startMs };
    await ensureContainer(session.containerUrl);
    const state = { count: 0, writes: 0, seedMs: 0, noteUrl: null, pages: 1, measureMs: 0 };
    let stopped = '';
    for (const size of config.sizes) {
      if (stopped) {
        outcome.sizes[size] = { skipped: stopped };
        continue;
      }
      log(` -- ${target.label} at ${size} notes`);
      // Seeding also leaves room for measuring: twice what the previous size's measurements took.
      stopped = await growTo(session, state, size, config, seedDeadline(state) - 2 * state.measureMs);
      if (stopped) {
        log(`  n/a (time bound): ${stopped}`);
        outcome.sizes[size] = { skipped: stopped };
        continue;
      }
      if (!state.noteUrl) {
        const res = await expectStatus(`${session.containerUrl}`, postSpec(session.containerUrl, `scale ${RUN_TAG} probe`), [201]);
        state.count += 1;
        state.noteUrl = new URL(res.headers.location, session.containerUrl).href;
      }
      const measureStarted = Date.now();
      const startMs = await session.restart();
      await sleep(IDLE_AFTER_START_MS);
      const rssStart = residentMb(session.pid());
      log(`  restarted on ${state.count} notes: ready in ${startMs} ms, RSS ${formatNumber(rssStart)} MB`);
      const countAtStart = state.count;
      const rows = await measureSize(session, state, config, runEnd);
      rows.startup = { kind: 'ms', medianMs: startMs };
      rows['rss-start'] = { kind: 'mb', value: rssStart };
      rows['rss-end'] = { kind: 'mb', value: residentMb(session.pid()) };
      rows.disk = { kind: 'mb', value: diskMb(session.dataDir) };
      log(`  RSS after the measurements ${formatNumber(rows['rss-end'].value)} MB, data on disk ${formatNumber(rows.disk.value)} MB`);
      outcome.sizes[size] = { notes: countAtStart, notesAfter: state.count, pages: state.pages, rows };
      state.measureMs = Date.now() - measureStarted;
    }
    outcome.seedMs = state.seedMs;
  });
  return outcome;
}

module.exports = { runLdpTarget };
