/**
 * What `work` settles with, or what `onTimeout` gives (or throws) once `timeoutMs` has passed first;
 * the timer is cleared either way. A rejection of `work` before the deadline is passed on. Work that
 * loses the race keeps running; a later rejection of it is handled here (Promise.race listens to it).
 */
export async function settleWithin<T, F>(work: Promise<T>, timeoutMs: number, onTimeout: () => F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<F>((resolve, reject): void => {
    timer = setTimeout((): void => {
      try {
        resolve(onTimeout());
      } catch (error: unknown) {
        reject(error);
      }
    }, timeoutMs);
  });
  try {
    return await Promise.race([ work, deadline ]);
  } finally {
    clearTimeout(timer);
  }
}
