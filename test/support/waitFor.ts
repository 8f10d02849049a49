export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve): void => {
    setTimeout(resolve, ms);
  });
}

/**
 * Polls `condition` every 5 ms until it holds; fails after `timeoutMs`. A check that never answers
 * (a Redis command to a server that hangs) fails at the deadline too, rather than at jest's timeout.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const failure = (): Error => new Error(`condition not met within ${timeoutMs} ms: ${condition.toString().slice(0, 200)}`);
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const met = await Promise.race([
      Promise.resolve(condition()),
      new Promise<never>((_resolve, reject): void => {
        timer = setTimeout((): void => reject(failure()), Math.max(0, deadline - Date.now()));
      }),
    ]).finally((): void => clearTimeout(timer));
    if (met) {
      return;
    }
    if (Date.now() > deadline) {
      throw failure();
    }
    await sleep(5);
  }
}
