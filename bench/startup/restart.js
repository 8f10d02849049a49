'use strict';

// Restarts of Fedpod on an existing data directory, timed from its own log: spawn to the store's
// recovery line (snapshot load and log replay, as the store reports them), to the `ready` line,
// and to the first /readyz answer of the server itself (with its checks: 200, or 503 naming what
// fails). Until then every /readyz answer must be a 503 (the placeholder holding the port).

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { request } = require('../lib/http');
const { sleep } = require('../lib/process');
const { REPO_ROOT } = require('../lib/css');

const FEDPOD_BIN = path.join(process.env.BENCH_FEDPOD_ROOT ? path.resolve(process.env.BENCH_FEDPOD_ROOT) : REPO_ROOT,
  'bin', 'fedpod.js');
const POLL_MS = 50;
const RECOVERY_LINE = /Dataset (\S+): (\d+) quads; snapshot loaded in (\d+) ms, (\d+) log records replayed in (\d+) ms/u;

/** The text of a start-up line, JSON (the default log format) or plain. */
function messageOf(line) {
  try {
    return String(JSON.parse(line).msg ?? '');
  } catch {
    return line;
  }
}

function safeJson(text) {
  try {
    return JSON.parse(text) ?? {};
  } catch {
    return {};
  }
}

/** CPU time (user + system, every thread) the process has used so far, in ms; null where /proc is missing. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * CPU time of the two busiest threads, in ms, busiest first: the main thread and the store's worker
 * work in parallel, so on free cores start-up takes about as long as the busier one. Null without /proc.
 */
function busiestThreadsCpuMs(pid) {
  try {
    const tasks = fs.readdirSync(`/proc/${pid}/task`);
    return tasks.map((task) => {
      const fields = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    }).sort((a, b) => b - a).slice(0, 2);
  } catch {
    return null;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `fedpod start --config ldp` on `dataDir`, waits for `ready` and the server's /readyz (at most
 * `timeoutMs`), and returns the timings, the readiness answers seen, and stop(signal) which ends the
 * process (SIGTERM: a clean stop, timed; SIGKILL: a crash) and resolves to the milliseconds it took.
 */
async function startTimed({ dataDir, port, storePort, timeoutMs, config = 'ldp' }) {
  const started = Date.now();
  const child = spawn(process.execPath, [ FEDPOD_BIN, 'start', '--config', config, '--data-dir', dataDir,
    '--port', String(port), '--store-port', String(storePort), '--base-url', `http://localhost:${port}/` ], {
    cwd: REPO_ROOT, stdio: [ 'ignore', 'pipe', 'pipe' ], detached: true,
  });
  const timings = { recovery: null, readyLineMs: null, readyCpuMs: null, readyThreadsCpuMs: null, readyzMs: null, readyz: null };
  const lines = [];
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = code ?? signal;
  });
  let buffered = '';
  const onData = (chunk) => {
    buffered += chunk.toString('utf8');
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = messageOf(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      lines.push(line);
      const recovery = RECOVERY_LINE.exec(line);
      if (recovery) {
        timings.recovery = { atMs: Date.now() - started, dataset: recovery[1], quads: Number(recovery[2]),
          snapshotMs: Number(recovery[3]), records: Number(recovery[4]), replayMs: Number(recovery[5]) };
      }
      if (line.startsWith('ready:') && timings.readyLineMs === null) {
        timings.readyLineMs = Date.now() - started;
        // Less sensitive than wall time to other processes on the machine.
        timings.readyCpuMs = cpuMs(child.pid);
        timings.readyThreadsCpuMs = busiestThreadsCpuMs(child.pid);
      }
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);

  // Readiness answers in order: { status, beforeReadyLine }.
  const answers = [];
  const deadline = started + timeoutMs;
  while (timings.readyzMs === null) {
    if (exited !== null) {
      throw new Error(`fedpod exited (${exited}) before it was ready: ${lines.slice(-5).join(' | ')}`);
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid, 'SIGKILL');
      throw new Error(`fedpod not ready after ${timeoutMs} ms: ${lines.slice(-5).join(' | ')}`);
    }
    const beforeReadyLine = timings.readyLineMs === null;
    try {
      const res = await request(`http://localhost:${port}/readyz`, { timeoutMs: 5000, headers: { connection: 'close' } });
      // The server's own answer names its checks; the placeholder holding the port while the store loads does not.
      const checks = safeJson(res.body).checks;
      answers.push({ status: res.status, beforeReadyLine, fromServer: checks !== undefined });
      if (checks !== undefined) {
        timings.readyzMs = Date.now() - started;
        timings.readyz = { status: res.status, failing: Object.keys(checks).filter((name) => checks[name].status !== 'ok') };
        break;
      }
    } catch {
      // Not listening (yet): no answer to record.
    }
    await sleep(POLL_MS);
  }

  const stop = async(signal = 'SIGTERM') => {
    const stopping = Date.now();
    process.kill(-child.pid, signal);
    while (alive(child.pid) && exited === null && Date.now() - stopping < 120000) {
      await sleep(50);
    }
    return Date.now() - stopping;
  };
  return { timings, answers, lines, stop };
}

/** Readiness honesty: before the server answers itself, every answer must be a 503 (refused connections are no answer). */
function dishonestAnswers(answers) {
  return answers.filter((answer) => !answer.fromServer && answer.status !== 503);
}

module.exports = { startTimed, dishonestAnswers };
