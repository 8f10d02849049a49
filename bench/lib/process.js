'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { request } = require('./http');

const POLL_INTERVAL_MS = 250;
const STOP_TIMEOUT_MS = 5000;
const LOG_TAIL_CHARS = 2000;

// Every child we spawn, so an interrupted run can still clean up after itself.
const running = new Map();

let logDir = null;

// One temp directory per benchmark run holds the logs of all servers.
function getLogDir() {
  if (!logDir) {
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-bench-logs-'));
  }
  return logDir;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function readLogTail(logFile) {
  try {
    const text = fs.readFileSync(logFile, 'utf8');
    return text.slice(-LOG_TAIL_CHARS);
  } catch {
    return '';
  }
}

// The most telling line of a log for a one-line failure reason: the last line
// mentioning an error (stack frames excluded), else the last non-empty line.
function logHeadline(logFile) {
  const lines = readLogTail(logFile).split('\n').map((line) => line.trim()).filter(Boolean);
  const errors = lines.filter((line) => /error/i.test(line) && !line.startsWith('at '));
  return (errors.length > 0 ? errors[errors.length - 1] : lines[lines.length - 1] || '(empty log)').slice(0, 300);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Signal the child's own process group (it was spawned detached, so the group
// id is its pid): servers such as Fedpod start helper processes of their own.
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

// Stop a process we started: SIGTERM first, SIGKILL if it lingers.
async function stopProcess(pid, timeoutMs = STOP_TIMEOUT_MS) {
  if (!pid || !isAlive(pid)) {
    running.delete(pid);
    return;
  }
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) {
    await sleep(100);
  }
  if (isAlive(pid)) {
    signalGroup(pid, 'SIGKILL');
  }
  running.delete(pid);
}

async function stopAll() {
  await Promise.all([...running.keys()].map((pid) => stopProcess(pid)));
}

// Synchronous best-effort kill for process 'exit' handlers.
function killAllNow() {
  for (const pid of running.keys()) {
    signalGroup(pid, 'SIGKILL');
  }
  running.clear();
}

async function probe(readyUrl, isReady) {
  try {
    const res = await request(readyUrl, { timeoutMs: 2000 });
    return isReady(res);
  } catch {
    return false;
  }
}

// Poll `readyUrl` until `isReady(response)` holds, the child dies or time runs out.
async function waitUntilReady(handle, { readyUrl, isReady, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (handle.exited || handle.spawnError()) {
      const reason = handle.spawnError() ? handle.spawnError().message : `code ${handle.exitCode}`;
      throw new Error(`${handle.name} exited (${reason}) before it was ready: ${logHeadline(handle.logFile)}` +
        ` [log ${handle.logFile}]\n${readLogTail(handle.logFile)}`);
    }
    if (await probe(readyUrl, isReady)) {
      return;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`${handle.name} not ready after ${timeoutMs} ms at ${readyUrl}: ${logHeadline(handle.logFile)}` +
    ` [log ${handle.logFile}]\n${readLogTail(handle.logFile)}`);
}

/**
 * Spawn a server child process with stdout/stderr going to a log file, and
 * wait until it answers on `readyUrl`.
 * Resolves to { name, pid, logFile, startMs, stop() }.
 */
async function startServer(options) {
  const {
    name, args, cwd, env,
    command = process.execPath,
    readyUrl,
    isReady = (res) => res.status === 200,
    timeoutMs = 60000,
  } = options;
  const logFile = path.join(getLogDir(), `${name.replace(/[^\w.-]+/g, '_')}.log`);
  const logFd = fs.openSync(logFile, 'a');
  const started = Date.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', logFd, logFd],
    detached: true,
  });
  fs.closeSync(logFd);
  let spawnError = null;
  child.on('error', (error) => {
    spawnError = error;
  });
  if (!child.pid) {
    throw new Error(`could not spawn ${name}: ${command} ${args.join(' ')}`);
  }
  const handle = {
    name,
    pid: child.pid,
    logFile,
    exited: false,
    exitCode: null,
    stop: () => stopProcess(child.pid),
    spawnError: () => spawnError,
  };
  child.on('exit', (code, signal) => {
    handle.exited = true;
    handle.exitCode = code === null ? signal : code;
    running.delete(child.pid);
  });
  running.set(child.pid, handle);
  try {
    await waitUntilReady(handle, { readyUrl, isReady, timeoutMs });
  } catch (error) {
    await stopProcess(child.pid);
    throw error;
  }
  handle.startMs = Date.now() - started;
  return handle;
}

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status: all its threads; Linux only), or null. */
function residentMb(pid) {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/u)[1]) / 1024 : null;
  } catch {
    return null;
  }
}

module.exports = { startServer, stopProcess, stopAll, killAllNow, getLogDir, sleep, readLogTail, residentMb };
