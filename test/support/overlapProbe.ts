import type { JobQueue } from '../../src/plugins/queue/JobQueue';
import { sleep } from './waitFor';

export interface OverlapProbe {
  /** The most jobs seen running at once since the start or the last reset(). */
  most: () => number;
  /** Jobs finished. */
  done: () => number;
  reset: () => void;
}

/** Processes `queue` with a handler that takes `handlerMs`, counting how many jobs run at once. */
export function overlapProbe<T>(queue: JobQueue<T>, concurrency: number, handlerMs: number): OverlapProbe {
  let running = 0;
  let most = 0;
  let done = 0;
  queue.process(async(): Promise<void> => {
    running += 1;
    most = Math.max(most, running);
    await sleep(handlerMs);
    running -= 1;
    done += 1;
  }, concurrency);
  return { most: (): number => most, done: (): number => done, reset: (): void => {
    most = 0;
  } };
}
