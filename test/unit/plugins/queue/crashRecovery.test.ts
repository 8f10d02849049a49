import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalJournalQueue } from '../../../../src/plugins/queue/LocalJournalQueue';
import { waitFor } from '../../../support/waitFor';

interface ChildOptions {
  dir: string;
  producers: number;
  jobs: number;
  concurrency: number;
  handlerMs: number;
  compactMinBytes: number;
}

interface ChildLog {
  acked: Set<string>;
  started: Set<string>;
  done: Set<string>;
  allAcked: boolean;
}

/**
 * Runs support/queueChild.js (unsynced writes lost on kill) and kills it with SIGKILL
 * as soon as `killWhen` holds for what it printed so far.
 */
async function runChildUntilKilled(options: ChildOptions, killWhen: (log: ChildLog) => boolean): Promise<ChildLog> {
  const child = spawn(process.execPath, [ join(__dirname, 'support', 'queueChild.js'), JSON.stringify(options) ], {
    env: { ...process.env, FEDPOD_TEST_UNSYNCED_LOST: '1' },
    stdio: [ 'ignore', 'pipe', 'pipe' ],
  });
  const log: ChildLog = { acked: new Set(), started: new Set(), done: new Set(), allAcked: false };
  let stderr = '';
  let buffered = '';
  let killed = false;
  child.stderr.on('data', (chunk: Buffer): void => {
    stderr += chunk.toString('utf8');
  });
  child.stdout.on('data', (chunk: Buffer): void => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() as string;
    for (const line of lines) {
      const [ kind, id ] = line.split(' ');
      if (kind === 'ACK') {
        log.acked.add(id);
      } else if (kind === 'START') {
        log.started.add(id);
      } else if (kind === 'DONE') {
        log.done.add(id);
      } else if (kind === 'ALL-ACKED') {
        log.allAcked = true;
      }
    }
    if (!killed && killWhen(log)) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve): void => {
    child.on('exit', (_code, exitSignal): void => resolve(exitSignal));
  });
  if (signal !== 'SIGKILL') {
    throw new Error(`child ended before the kill (${String(signal)}):\n${stderr}`);
  }
  return log;
}

/** Opens the directory again and runs every pending job; returns the ids run. */
async function recover(dir: string): Promise<string[]> {
  const queue = new LocalJournalQueue<{ lane: number; n: number }>('crash', dir);
  const ran: string[] = [];
  queue.process(async(job): Promise<void> => {
    ran.push(job.id);
  }, 8);
  await waitFor(async(): Promise<boolean> => {
    const counts = await queue.counts();
    return counts.waiting + counts.active + counts.delayed === 0;
  }, 20_000);
  expect((await queue.counts()).dead).toBe(0);
  await queue.close();
  return ran;
}

describe('LocalJournalQueue crash recovery (kill -9 of the process)', (): void => {
  let root: string;

  beforeEach((): void => {
    root = mkdtempSync(join(tmpdir(), 'fedpod-queue-crash-'));
  });

  afterEach((): void => {
    rmSync(root, { recursive: true, force: true });
  });

  it('runs every acknowledged job at least once after a kill during adds and runs', async(): Promise<void> => {
    const dir = join(root, 'queues', 'crash');
    const log = await runChildUntilKilled(
      { dir, producers: 10, jobs: 5000, concurrency: 4, handlerMs: 3, compactMinBytes: 32 * 1024 },
      (seen): boolean => seen.acked.size >= 1500 &&
        [ ...seen.started ].filter((id): boolean => !seen.done.has(id) && seen.acked.has(id)).length >= 2,
    );
    expect(log.allAcked).toBe(false);
    // A job can start before its add() is acknowledged; one whose record was not yet durable at the
    // kill was never accepted, so only acknowledged runs that were cut short must run again.
    const interrupted = [ ...log.started ].filter((id): boolean => !log.done.has(id) && log.acked.has(id));
    expect(interrupted.length).toBeGreaterThan(0);

    const ran = new Set(await recover(dir));
    const lost = [ ...log.acked ].filter((id): boolean => !log.done.has(id) && !ran.has(id));
    expect(lost).toEqual([]);
    for (const id of interrupted) {
      expect(ran.has(id)).toBe(true);
    }
  });

  it('runs every job of a fully acknowledged batch after a kill during the runs', async(): Promise<void> => {
    const dir = join(root, 'queues', 'crash');
    const log = await runChildUntilKilled(
      { dir, producers: 10, jobs: 300, concurrency: 4, handlerMs: 10, compactMinBytes: 8 * 1024 },
      (seen): boolean => seen.allAcked && seen.done.size >= 100,
    );
    expect(log.acked.size).toBe(300);
    const ran = new Set(await recover(dir));
    const lost = [ ...log.acked ].filter((id): boolean => !log.done.has(id) && !ran.has(id));
    expect(lost).toEqual([]);
    // Completions are journalled lazily: a few done jobs may run again, most must not.
    const again = [ ...log.done ].filter((id): boolean => ran.has(id));
    expect(again.length).toBeLessThan(log.done.size / 2);
  });
});
