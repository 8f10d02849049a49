'use strict';

// Preloaded into the server the soak starts (NODE_OPTIONS="--expose-gc --require <this file>"; Node runs
// a preload on every thread, the store's worker too). On SIGUSR2 the main thread and then the store's
// thread each run a full garbage collection and append one JSON line of their memory to
// FEDPOD_BENCH_MEMORY_FILE: what the heap holds after a full collection is what the process keeps; RSS
// above it is heap not collected yet, or memory the allocator has not given back.

const fs = require('node:fs');
const { BroadcastChannel, isMainThread, threadId } = require('node:worker_threads');

const file = process.env.FEDPOD_BENCH_MEMORY_FILE;
const MB = 1024 * 1024;
const { WebAssembly } = globalThis;

// Oxigraph's WebAssembly memory (a wasm memory only grows): its instances are caught as they are made.
const wasmMemories = [];
const NativeInstance = WebAssembly.Instance;
function CatchingInstance(module, imports) {
  const instance = new NativeInstance(module, imports);
  if (instance.exports.memory instanceof WebAssembly.Memory) {
    wasmMemories.push(instance.exports.memory);
  }
  return instance;
}
CatchingInstance.prototype = NativeInstance.prototype;

function sample(sampleId) {
  const before = process.memoryUsage();
  const collected = typeof global.gc === 'function';
  if (collected) {
    global.gc();
  }
  const after = process.memoryUsage();
  fs.appendFileSync(file, `${JSON.stringify({
    sample: sampleId, thread: isMainThread ? 'main' : `worker ${threadId}`, collected,
    heapUsedBeforeMb: before.heapUsed / MB, heapTotalBeforeMb: before.heapTotal / MB,
    heapUsedMb: after.heapUsed / MB, heapTotalMb: after.heapTotal / MB, externalMb: after.external / MB,
    wasmMb: wasmMemories.reduce((sum, memory) => sum + memory.buffer.byteLength, 0) / MB,
  })}\n`);
}

if (file) {
  WebAssembly.Instance = CatchingInstance;
  const channel = new BroadcastChannel('fedpod-bench-memory-probe');
  channel.unref();
  if (isMainThread) {
    let next = 0;
    process.on('SIGUSR2', () => {
      next += 1;
      sample(next);
      channel.postMessage(next);
    });
  } else {
    channel.onmessage = (event) => sample(event.data);
  }
}
