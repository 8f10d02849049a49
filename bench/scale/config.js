'use strict';

// Knobs of bench/scale (bench/README.md lists them), on top of bench/lib/config.js. Its own defaults
// for the shared ones (BENCH_DURATION 3, BENCH_WARMUP 1, BENCH_MAX_SECONDS 900, or 3600 with
// --large) keep the default run near ten minutes on two cores: each size measures a dozen rows.

const { loadConfig, readList, readNumber } = require('../lib/config');

const DEFAULT_SIZES = [1000, 10000];
const LARGE_SIZES = [1000, 10000, 100000];
const PARTS = ['ldp', 'collections'];

function readSizes(large) {
  const listed = readList('BENCH_SCALE_SIZES');
  const sizes = listed ? listed.map(Number) : large ? LARGE_SIZES : DEFAULT_SIZES;
  if (sizes.some((size) => !Number.isInteger(size) || size < 100 || size > 1000000)) {
    throw new Error(`BENCH_SCALE_SIZES must be whole numbers from 100 to 1000000, got "${process.env.BENCH_SCALE_SIZES}"`);
  }
  // Ascending and distinct: one server is grown from one size to the next.
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function unsetOr(env, fallback) {
  return process.env[env] === undefined || process.env[env] === '' ? fallback : undefined;
}

function loadScaleConfig(argv = process.argv.slice(2)) {
  const unknown = argv.filter((arg) => arg !== '--large');
  if (unknown.length > 0) {
    throw new Error(`unknown argument ${unknown[0]}; the only flag is --large (sizes 1000,10000,100000)`);
  }
  const large = argv.includes('--large');
  const config = loadConfig();
  config.duration = unsetOr('BENCH_DURATION', 3) ?? config.duration;
  config.warmup = unsetOr('BENCH_WARMUP', 1) ?? config.warmup;
  config.maxSeconds = unsetOr('BENCH_MAX_SECONDS', large ? 3600 : 900) ?? config.maxSeconds;
  config.large = large;
  config.sizes = readSizes(large);
  config.samples = Math.round(readNumber({ env: 'BENCH_SCALE_SAMPLES', fallback: 15, min: 3, max: 200 }));
  config.posts = Math.round(readNumber({ env: 'BENCH_SCALE_POSTS', fallback: 300, min: 20, max: 5000 }));
  config.seedConnections = Math.round(readNumber({ env: 'BENCH_SCALE_SEED_CONNECTIONS', fallback: 8, min: 1, max: 64 }));
  config.cssSeedSeconds = readNumber({ env: 'BENCH_SCALE_CSS_SEED_SECONDS', fallback: 300, min: 10, max: 7200 });
  config.followersPerSize = readNumber({ env: 'BENCH_SCALE_FOLLOWERS_PER_SIZE', fallback: 0.1, min: 0.001, max: 1 });
  // Outbox POSTs cost more than notes (an activity and its object): --large grows the outbox to a
  // quarter of each size, so that 100,000 fits its hour.
  config.outboxPerSize = readNumber({ env: 'BENCH_SCALE_OUTBOX_PER_SIZE', fallback: large ? 0.25 : 1, min: 0.001, max: 1 });
  config.parts = readList('BENCH_SCALE_PARTS') || PARTS;
  const badPart = config.parts.find((part) => !PARTS.includes(part));
  if (badPart) {
    throw new Error(`unknown BENCH_SCALE_PARTS ${badPart}; known: ${PARTS.join(',')}`);
  }
  return config;
}

module.exports = { loadScaleConfig };
