export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve): void => {
    setTimeout(resolve, ms);
  });
}

/** Polls `condition` every 5 ms until it holds; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!await condition()) {
    if (Date.now() > deadline) {
      throw new Error(`condition not met within ${timeoutMs} ms: ${condition.toString().slice(0, 200)}`);
    }
    await sleep(5);
  }
}
