// A process that fills a LocalJournalQueue and works on it until the test kills it
// with SIGKILL. Options come as JSON in argv[2]:
//   { dir, producers, jobs, concurrency, handlerMs }
// Prints, one per line (stdout to a pipe is synchronous on Linux, so every line
// printed before the kill reaches the parent):
//   ACK <id>    add() resolved: the job is acknowledged
//   START <id>  a run began            DONE <id>  a run ended
//
// With FEDPOD_TEST_UNSYNCED_LOST=1, positioned FileHandle writes (the journal's
// appends and compaction writes) are held in memory until the next datasync/sync
// of that handle, so a kill -9 loses every write that was not fsynced, as a power
// cut would: an ACK printed before its record was fsynced would show as a lost job.
require('./tsRegister');
const { open } = require('node:fs/promises');

async function simulatePowerLossSemantics() {
  const probe = await open(__filename, 'r');
  const FileHandle = probe.constructor;
  await probe.close();
  const realWrite = FileHandle.prototype.write;
  const realDatasync = FileHandle.prototype.datasync;
  const realSync = FileHandle.prototype.sync;
  const unsynced = new WeakMap();
  FileHandle.prototype.write = function write(buffer, offset, length, position) {
    if (!Buffer.isBuffer(buffer) || typeof position !== 'number') {
      return realWrite.apply(this, arguments);
    }
    const held = unsynced.get(this) ?? [];
    unsynced.set(this, held);
    held.push({ data: Buffer.from(buffer.subarray(offset, offset + length)), position });
    return Promise.resolve({ bytesWritten: length, buffer });
  };
  const flushHeld = async (handle) => {
    // Give a kill the chance to land while writes are still only in memory.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const held = unsynced.get(handle) ?? [];
    unsynced.delete(handle);
    for (const { data, position } of held) {
      await realWrite.call(handle, data, 0, data.length, position);
    }
  };
  FileHandle.prototype.datasync = async function datasync() {
    await flushHeld(this);
    return realDatasync.call(this);
  };
  FileHandle.prototype.sync = async function sync() {
    await flushHeld(this);
    return realSync.call(this);
  };
}

async function main() {
  if (process.env.FEDPOD_TEST_UNSYNCED_LOST === '1') {
    await simulatePowerLossSemantics();
  }
  const options = JSON.parse(process.argv[2]);
  const { LocalJournalQueue } = require('../../../../../src/plugins/queue/LocalJournalQueue.ts');
  const { RetryPolicy } = require('../../../../../src/plugins/queue/RetryPolicy.ts');
  const queue = new LocalJournalQueue('crash', options.dir, {
    retry: new RetryPolicy(5, 10, 100, 0),
    compactMinBytes: options.compactMinBytes,
  });
  const print = (line) => process.stdout.write(`${line}\n`);
  queue.process(async (job) => {
    print(`START ${job.id}`);
    await new Promise((resolve) => setTimeout(resolve, options.handlerMs));
    print(`DONE ${job.id}`);
  }, options.concurrency);
  let next = 0;
  const producer = async (lane) => {
    while (next < options.jobs) {
      next += 1;
      const id = await queue.add({ lane, n: next }, { jobId: `job-${next}` });
      print(`ACK ${id}`);
    }
  };
  await Promise.all(Array.from({ length: options.producers }, (_, lane) => producer(lane)));
  print('ALL-ACKED');
}

main().catch((error) => {
  process.stderr.write(`FAILED ${error.stack}\n`);
  process.exit(1);
});
