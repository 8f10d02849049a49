'use strict';

// CPU time of another process (a target server), read from outside through /proc
// (Linux), so measuring costs the measured process nothing:
//   - /proc/<pid>/stat fields 14 and 15 (utime + stime, clock ticks of `getconf
//     CLK_TCK`): every thread of the process, those that already exited included,
//     but only to the tick (10 ms);
//   - /proc/<pid>/task/<tid>/schedstat, first field: nanoseconds each live thread
//     has run (the kernel's sum_exec_runtime, which utime + stime are scaled to).
// A delta uses the nanosecond sum when it agrees with the tick delta (same
// threads at both ends, nothing lost), else the tick delta.
//
//   cpuSample(pid)             { at (ms, monotonic), ticksMs, threadsNs: Map(tid -> ns) }
//   cpuDelta(before, after)    { ms, wallMs, precise, ticksMs, threadsExited, mainThreadMs, busiestThreads }
//   idleBaseline(pid, options) wait until the process is quiet, then its CPU rate over a window
//   nodeProcess(pid)           the pid of the node process itself (pid or a descendant)

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { sleep } = require('../../lib/process');

const FALLBACK_TICKS = 100;
// Each /proc/<pid>/stat reading is truncated to a tick, and the kernel scales
// utime + stime to the thread group's run time: two readings may differ from
// the nanosecond sum by up to about two ticks without anything being lost.
const AGREEMENT_TICKS = 2.5;
const SETTLE_STEP_MS = 200;
// "Quiet": under 3 % of one core over a settle step (timers, GC of a settling heap).
const QUIET_SHARE = 0.03;

let ticksPerSecond = null;

/** Clock ticks per second of /proc's utime and stime (`getconf CLK_TCK`, normally 100). */
function clockTicks() {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || FALLBACK_TICKS;
    } catch {
      ticksPerSecond = FALLBACK_TICKS;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of the whole process in ms (to the tick). */
function statCpuMs(pid) {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field N is fields[N - 3].
  const ticks = Number(fields[14 - 3]) + Number(fields[15 - 3]);
  return ticks * 1000 / clockTicks();
}

/** Run time in ns of every live thread of the process (null where schedstat is missing). */
function threadRunTimes(pid) {
  const times = new Map();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      times.set(tid, Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch (error) {
      // A thread that ended between readdir and read: it is gone from the next sample too.
      if (error.code !== 'ENOENT' && error.code !== 'ESRCH') {
        return null;
      }
    }
  }
  return times;
}

function cpuSample(pid) {
  const at = performance.now();
  return { pid: String(pid), at, ticksMs: statCpuMs(pid), threadsNs: threadRunTimes(pid) };
}

const BUSIEST_THREADS = 6;

/** CPU ms used between two samples of one process, the nanosecond sum when it can be trusted. */
function cpuDelta(before, after) {
  const ticksMs = after.ticksMs - before.ticksMs;
  const result = { ms: ticksMs, wallMs: after.at - before.at, precise: false, ticksMs, threadsExited: 0 };
  if (!before.threadsNs || !after.threadsNs) {
    return result;
  }
  const byThread = [...after.threadsNs].map(([tid, runNs]) => ({ tid: Number(tid), ms: (runNs - (before.threadsNs.get(tid) || 0)) / 1e6 }));
  result.threadsExited = [...before.threadsNs.keys()].filter((tid) => !after.threadsNs.has(tid)).length;
  const preciseMs = byThread.reduce((sum, thread) => sum + thread.ms, 0);
  // A thread that ended inside the window took its run time with it (the ticks keep it).
  if (result.threadsExited === 0 && Math.abs(preciseMs - ticksMs) <= AGREEMENT_TICKS * 1000 / clockTicks()) {
    result.ms = preciseMs;
    result.precise = true;
  }
  // Where it went: the main thread (tid = pid) runs the event loop; the others are worker
  // threads, the libuv pool and V8's GC and compiler helpers (in Node 20 all named "node").
  const main = byThread.find((thread) => String(thread.tid) === after.pid);
  result.mainThreadMs = main ? main.ms : null;
  result.busiestThreads = byThread.sort((a, b) => b.ms - a.ms).slice(0, BUSIEST_THREADS);
  return result;
}

/**
 * Waits (up to `settleMs`) until the process uses under 3 % of a core over 200 ms, so the
 * tail of earlier work is not taken for its idle rate, then measures its CPU over `windowMs`.
 * Resolves to { msPerSec, windowMs, settledMs, quiet, precise }.
 */
async function idleBaseline(pid, { windowMs, settleMs }) {
  const settleStart = performance.now();
  let quiet = false;
  let previous = cpuSample(pid);
  while (!quiet && performance.now() - settleStart < settleMs) {
    await sleep(SETTLE_STEP_MS);
    const next = cpuSample(pid);
    const step = cpuDelta(previous, next);
    quiet = step.ms <= QUIET_SHARE * step.wallMs;
    previous = next;
  }
  const settledMs = performance.now() - settleStart;
  await sleep(windowMs);
  const idle = cpuDelta(previous, cpuSample(pid));
  return { msPerSec: idle.ms / (idle.wallMs / 1000), windowMs: idle.wallMs, settledMs, quiet, precise: idle.precise };
}

function commandLine(pid) {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

function childrenOf(pid) {
  const children = [];
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      children.push(...fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean));
    } catch {
      // Thread gone, or a kernel without the children file: no children known.
    }
  }
  return children;
}

function isNode(pid) {
  const [argv0] = commandLine(pid);
  return argv0 === process.execPath || /^node(js)?(\d+)?$/.test(path.basename(argv0 || ''));
}

/**
 * The node process behind `pid`: itself when it is node (the bench spawns process.execPath
 * directly), else the first node descendant (a wrapper such as npx, chrt or a shell).
 * Resolves to { pid, command, children (pids of its own child processes) }.
 */
function nodeProcess(pid) {
  const queue = [String(pid)];
  while (queue.length > 0) {
    const candidate = queue.shift();
    if (isNode(candidate)) {
      return { pid: Number(candidate), command: commandLine(candidate).join(' '), children: childrenOf(candidate).map(Number) };
    }
    queue.push(...childrenOf(candidate));
  }
  throw new Error(`no node process at or below pid ${pid} (${commandLine(pid).join(' ')})`);
}

module.exports = { clockTicks, cpuSample, cpuDelta, idleBaseline, nodeProcess };
