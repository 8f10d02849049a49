'use strict';

// Benchmark knobs, all read from the environment so CI and humans can tune a
// run without editing code. Every value is bounded: a benchmark must never be
// able to run (or hammer the machine) forever.

const LIMITS = {
  duration: { env: 'BENCH_DURATION', fallback: 5, min: 1, max: 120 },
  warmup: { env: 'BENCH_WARMUP', fallback: 2, min: 0, max: 60 },
  connections: { env: 'BENCH_CONNECTIONS', fallback: 10, min: 1, max: 200 },
  startTimeout: { env: 'BENCH_START_TIMEOUT', fallback: 90, min: 5, max: 600 },
  maxSeconds: { env: 'BENCH_MAX_SECONDS', fallback: 1200, min: 30, max: 7200 },
};

function readNumber({ env, fallback, min, max }) {
  const raw = process.env[env];
  if (raw === undefined || raw === '') {
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isFinite(value)) {
    throw new Error(`${env} must be a number, got "${raw}"`);
  }
  return Math.min(max, Math.max(min, value));
}

// Comma-separated list from the environment, or null when unset (= "all").
function readList(name) {
  const raw = process.env[name];
  if (!raw) {
    return null;
  }
  return raw.split(',').map((item) => item.trim()).filter(Boolean);
}

function loadConfig() {
  const config = {};
  for (const [key, spec] of Object.entries(LIMITS)) {
    config[key] = readNumber(spec);
  }
  config.connections = Math.round(config.connections);
  config.targets = readList('BENCH_TARGETS');
  config.store = process.env.BENCH_STORE || 'auto';
  return config;
}

module.exports = { loadConfig, readList, readNumber };
