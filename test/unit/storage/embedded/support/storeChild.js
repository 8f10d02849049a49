// Runs the embedded store in this process (as `fedpod store` would) so a test
// can kill -9 it. Options come as JSON in argv[2]; prints "READY <url>" once listening.
//
// With FEDPOD_TEST_UNSYNCED_LOST_MS=<ms>, positioned FileHandle writes (the update
// log's appends) are held in memory until the next datasync/sync, which itself
// takes <ms>. A kill -9 then loses every write that was not fsynced, as a power cut
// would; without this, the page cache would keep them and hide an early ack.
require('./tsRegister');
const { open } = require('node:fs/promises');

async function simulatePowerLossSemantics(delayMs) {
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
    await new Promise((resolve) => setTimeout(resolve, delayMs));
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
  const delayMs = Number(process.env.FEDPOD_TEST_UNSYNCED_LOST_MS ?? '');
  if (delayMs > 0) {
    await simulatePowerLossSemantics(delayMs);
  }
  const { runEmbeddedStore } = require('../../../../../src/storage/embedded/index.ts');
  const handle = await runEmbeddedStore(JSON.parse(process.argv[2]), (message) => process.stderr.write(`warn: ${message}\n`), undefined,
    (message) => process.stderr.write(`info: ${message}\n`));
  process.stdout.write(`READY ${handle.url}\n`);
}

main().catch((error) => {
  process.stderr.write(`FAILED ${error.message}\n`);
  process.exit(1);
});
