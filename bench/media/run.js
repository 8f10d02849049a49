#!/usr/bin/env node
'use strict';
/* global Blob, FormData -- Node's own, as fetch is */

// Media benchmark: POST /api/v2/media of a 1 MB JPEG (decoded, re-encoded without EXIF, a 400 px
// thumbnail, a blurhash, three files and one store update) against a bare script doing the same image
// work with the same libraries in this process (no HTTP, no storage); and GET of the thumbnail (the
// media route: its access check, the upload's description, the file) against GET of a 100 kB file of
// the same user's storage (the LDP fast path). The reads alternate, after a warm-up of both, in rounds
// ordered thumbnail-file, file-thumbnail, ... so neither always goes first; the goal is judged on the
// median of the rounds' ratios (on a shared machine one run of each moves by a factor of two or more).
//   node bench/media/run.js   (knobs: BENCH_MEDIA_UPLOADS, BENCH_MEDIA_ROUNDS, BENCH_DURATION (per round),
//   BENCH_WARMUP, BENCH_CONNECTIONS; BENCH_MEDIA_CPU_PROF=<dir> writes the server's CPU profile there)

const { encode } = require('blurhash');
const sharp = require('sharp');
const { readNumber } = require('../lib/config');
const { freePort } = require('../lib/ports');
const { startFedpod, makeDataDir } = require('../lib/fedpod');
const { measure } = require('../lib/load');
const { stopAll } = require('../lib/process');
const { formatChecks, formatNumber, formatRatio, formatTable } = require('../lib/report');
const { log, runMain, saveResults, strictExitCode, warnIfBusy } = require('../lib/runner');

const UPLOADS = Math.round(readNumber({ env: 'BENCH_MEDIA_UPLOADS', fallback: 12, min: 2, max: 1000 }));
const ROUNDS = Math.round(readNumber({ env: 'BENCH_MEDIA_ROUNDS', fallback: 3, min: 1, max: 100 }));
const DURATION = readNumber({ env: 'BENCH_DURATION', fallback: 5, min: 1, max: 600 });
const WARMUP = readNumber({ env: 'BENCH_WARMUP', fallback: 2, min: 0, max: 600 });
const CONNECTIONS = Math.round(readNumber({ env: 'BENCH_CONNECTIONS', fallback: 8, min: 1, max: 256 }));
const GOALS = [
  { label: 'upload with thumbnail and blurhash vs the bare image work', key: 'upload', min: 0.5 },
  { label: 'GET of a thumbnail vs GET of a 100 kB file', key: 'read', min: 0.5 },
];

/** A JPEG of about 1 MB: noise compresses badly, so a modest size reaches it. */
async function photo() {
  const width = 1400;
  const height = 1050;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let index = 0; index < pixels.length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF;
    pixels[index] = (index % 3 === 0 ? (index / 3) % width : 0) / 4 + (seed >> 24);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 })
    .withExif({ IFD0: { Copyright: 'bench' } }).toBuffer();
}

/** The image work of an upload, done directly: what MediaProcessing does, with the same libraries. */
async function bareWork(input) {
  await sharp(input).metadata();
  const original = await sharp(input, { failOn: 'error' }).rotate().jpeg({ quality: 90 }).toBuffer();
  const small = await sharp(input, { failOn: 'error' }).rotate().resize(400, 400, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80 }).toBuffer();
  const pixels = await sharp(small).resize(32, 32, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { original, small, blurhash: encode(new Uint8ClampedArray(pixels.data), pixels.info.width, pixels.info.height, 4, 3) };
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values) {
  const sorted = [ ...values ].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs `work` `count` times in a row after one warm-up; resolves to operations per second. */
async function rate(count, work) {
  await work();
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index++) {
    await work();
  }
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function main() {
  warnIfBusy();
  const input = await photo();
  log(`media bench: ${formatNumber(input.length / 1024 / 1024, 2)} MB JPEG, ${UPLOADS} uploads one after the other; ` +
    `reads ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s each`);
  const port = await freePort();
  const profileDir = process.env.BENCH_MEDIA_CPU_PROF;
  const server = await startFedpod({ config: 'activitypub', port, storePort: await freePort(), dataDir: makeDataDir('media'),
    // Node refuses --cpu-prof in NODE_OPTIONS: the server's node is started with it through a shell.
    ...profileDir ? { prefix: [ 'sh', '-c', `exec "$0" --cpu-prof --cpu-prof-dir=${JSON.stringify(profileDir)} "$@"` ] } : {} });
  const base = server.baseUrl;
  const signup = await fetch(`${base}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', email: 'bench@example.com', password: 'correct horse' }) });
  const { token } = await signup.json();
  const auth = { authorization: `Bearer ${token}` };

  const upload = async () => {
    const form = new FormData();
    form.append('file', new Blob([ new Uint8Array(input) ], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await fetch(`${base}api/v2/media`, { method: 'POST', headers: auth, body: form });
    if (response.status !== 200) {
      throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    }
    return response.json();
  };
  const media = await upload();
  const bareRate = await rate(UPLOADS, () => bareWork(input));
  const uploadRate = await rate(UPLOADS, upload);

  // The thumbnail of a public post, and a 100 kB file of the same storage, both read anonymously.
  const post = await fetch(`${base}api/v1/statuses`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'bench', media_ids: [ media.id ], visibility: 'public' }) });
  if (post.status !== 200) {
    throw new Error(`posting answered ${post.status}`);
  }
  const fileUrl = `${base}pods/bench/public-file.bin`;
  const put = await fetch(fileUrl, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: Buffer.alloc(100 * 1024, 1) });
  const acl = await fetch(`${base}pods/bench/public-file.bin.acl`, { method: 'PUT', headers: { ...auth, 'content-type': 'text/turtle' },
    body: `@prefix acl: <http://www.w3.org/ns/auth/acl#>.\n<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; ` +
      `acl:accessTo <${fileUrl}>; acl:mode acl:Read.\n<#owner> a acl:Authorization; acl:agent <${base}actors/bench>; acl:accessTo <${fileUrl}>; ` +
      'acl:mode acl:Read, acl:Write, acl:Control.\n' });
  if (put.status >= 300 || acl.status >= 300 || (await fetch(fileUrl)).status !== 200 || (await fetch(media.preview_url)).status !== 200) {
    throw new Error(`the read targets are not readable anonymously (PUT ${put.status}, ACL ${acl.status})`);
  }
  // A warm-up of both, then rounds that alternate which goes first.
  const settings = { connections: CONNECTIONS, duration: DURATION, warmup: 0 };
  const targets = { thumbnail: { url: media.preview_url }, file: { url: fileUrl } };
  if (WARMUP > 0) {
    await measure(targets.thumbnail, { ...settings, duration: WARMUP });
    await measure(targets.file, { ...settings, duration: WARMUP });
  }
  const rounds = [];
  for (let index = 0; index < ROUNDS; index++) {
    const order = index % 2 === 0 ? [ 'thumbnail', 'file' ] : [ 'file', 'thumbnail' ];
    const round = {};
    for (const key of order) {
      // The run's window in the profile's clock (CLOCK_MONOTONIC microseconds): see bench/federation/lib/profile-summary.js.
      const from = Number(process.hrtime.bigint() / 1000n);
      round[key] = { ...await measure(targets[key], settings), window: [ from, Number(process.hrtime.bigint() / 1000n) ] };
    }
    round.ratio = round.thumbnail.reqPerSec / round.file.reqPerSec;
    log(`  round ${index + 1} (${order.join(' then ')}): thumbnail ${formatNumber(round.thumbnail.reqPerSec)}/s, ` +
      `file ${formatNumber(round.file.reqPerSec)}/s, ratio ${formatRatio(round.ratio)}`);
    rounds.push(round);
  }
  await stopAll();

  const ratios = { upload: uploadRate / bareRate, read: median(rounds.map((round) => round.ratio)) };
  const checks = GOALS.map((goal) => ({ label: goal.label, min: goal.min, ratio: ratios[goal.key], met: ratios[goal.key] >= goal.min }));
  log(`\n${formatTable([[ 'measured', 'per second' ]], [
    [ 'upload through POST /api/v2/media', formatNumber(uploadRate, 2) ],
    [ 'the same image work, bare', formatNumber(bareRate, 2) ],
    [ 'GET thumbnail (a public post\'s), median of the rounds', formatNumber(median(rounds.map((round) => round.thumbnail.reqPerSec))) ],
    [ 'GET 100 kB file, median of the rounds', formatNumber(median(rounds.map((round) => round.file.reqPerSec))) ],
  ])}`);
  log(`ratios: upload ${formatRatio(ratios.upload)}, read ${formatRatio(ratios.read)} (median of ${ROUNDS} rounds: ` +
    `${rounds.map((round) => formatRatio(round.ratio)).join(', ')})`);
  log(formatChecks(checks));
  saveResults('media', { settings: { uploads: UPLOADS, rounds: ROUNDS, ...settings, warmup: WARMUP, jpegBytes: input.length },
    results: { uploadRate, bareRate, rounds }, checks });
  return strictExitCode(checks);
}

runMain('bench/media', main);
