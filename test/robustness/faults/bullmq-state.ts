/**
 * For failure messages only: where a webhook job stands in BullMQ (its job hash, if any, and the
 * sizes of the queue's lists and sets), read with redis-cli from the test's private redis-server.
 */
import { execFile } from 'node:child_process';

// Finds the job hashes whose data holds the webhook job id, and the queue's set sizes.
const SCRIPT = `
local out = {}
for _, key in ipairs(redis.call('KEYS', ARGV[1] .. ':*')) do
  if redis.call('TYPE', key).ok == 'hash' then
    local data = redis.call('HGET', key, 'data')
    if data and string.find(data, ARGV[2], 1, true) then
      table.insert(out, key .. ' ' .. cjson.encode(redis.call('HGETALL', key)))
    end
  end
end
for _, name in ipairs({ 'wait', 'active', 'delayed', 'failed', 'paused', 'prioritized', 'stalled' }) do
  local key = ARGV[1] .. ':' .. name
  local kind = redis.call('TYPE', key).ok
  local n = 0
  if kind == 'list' then n = redis.call('LLEN', key) elseif kind == 'zset' then n = redis.call('ZCARD', key)
  elseif kind == 'set' then n = redis.call('SCARD', key) end
  table.insert(out, name .. '=' .. n)
end
return out`;

export function bullmqJobState(port: number, jobId: string, queueKey = 'fedpod:webhooks'): Promise<string> {
  return new Promise((resolve) => {
    execFile('redis-cli', [ '-p', String(port), 'EVAL', SCRIPT, '0', queueKey, jobId ], { timeout: 10_000 }, (error, stdout, stderr) => {
      resolve(error ? `(redis-cli: ${String(error)} ${stderr})` : stdout.trim().replace(/\n/gu, '; '));
    });
  });
}
