/**
 * Reconnection wait after the n-th failed attempt: short and capped, so that queues, workers,
 * locks and counters are back within about 2 s of Redis (ioredis's BullMQ default grows to 20 s).
 */
export function redisReconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.max(0, attempt - 1), 2_000);
}
