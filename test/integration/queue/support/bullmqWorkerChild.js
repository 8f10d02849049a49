// A BullMQ worker process that the test kills with SIGKILL in the middle of a job.
// Options come as JSON in argv[2]: { redisUrl, name, prefix, lockDurationMs, stalledIntervalMs }.
// Prints "START <id> <attempt>" when a job begins; its jobs never end on their own.
require('./tsRegister');

const options = JSON.parse(process.argv[2]);
const { BullMqJobQueue } = require('../../../../src/plugins/queue/BullMqJobQueue.ts');
const queue = new BullMqJobQueue(options.name, {
  redisUrl: options.redisUrl,
  prefix: options.prefix,
  lockDurationMs: options.lockDurationMs,
  stalledIntervalMs: options.stalledIntervalMs,
});
queue.process(async (job) => {
  process.stdout.write(`START ${job.id} ${job.attempt}\n`);
  await new Promise(() => undefined);
}, 1);
process.stdout.write('READY\n');
