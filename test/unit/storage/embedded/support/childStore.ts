import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { EmbeddedStoreOptions } from '../../../../../src/storage/embedded';

/** The embedded store running in a separate `node` process, so tests can kill -9 it. */
export interface ChildStore {
  readonly url: string;
  readonly process: ChildProcess;
  readonly stderr: () => string;
  /** SIGKILL and wait for the exit. */
  readonly kill: () => Promise<void>;
}

/**
 * `unsyncedLostMs` > 0 makes the child drop log writes that were not fsynced when it
 * is killed, and makes each fsync take that long (see storeChild.js).
 */
export async function startChildStore(options: EmbeddedStoreOptions, unsyncedLostMs = 0): Promise<ChildStore> {
  const child = spawn(process.execPath, [ join(__dirname, 'storeChild.js'), JSON.stringify(options) ], {
    stdio: [ 'ignore', 'pipe', 'pipe' ],
    env: { ...process.env, FEDPOD_TEST_UNSYNCED_LOST_MS: String(unsyncedLostMs) },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer): void => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve): void => {
    child.once('exit', (): void => resolve());
  });
  const url = await new Promise<string>((resolve, reject): void => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer): void => {
      stdout += chunk.toString();
      const match = /READY (\S+)/u.exec(stdout);
      if (match) {
        resolve(match[1]);
      }
    });
    child.once('exit', (code): void => reject(new Error(`store child exited with ${String(code)}: ${stderr}`)));
  });
  return {
    url,
    process: child,
    stderr: (): string => stderr,
    kill: async(): Promise<void> => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
