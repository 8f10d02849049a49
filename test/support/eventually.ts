/**
 * Polls `check` until it gives a value (anything but undefined or false: a check that returns a
 * boolean waits for true) and resolves with it; rejects once `timeoutMs` has passed. For outcomes
 * that happen in the background (queues, deliveries). The interval is short because a check is a
 * request or two: a long one is waited out, half of it on average, after the outcome is there.
 */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
