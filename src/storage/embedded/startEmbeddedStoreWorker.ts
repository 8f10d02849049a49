import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EmbeddedStoreHandle } from './runEmbeddedStore';
import type { EmbeddedStoreOptions } from './EmbeddedStoreOptions';
import type { EmbeddedStoreWorkerData, ParentToWorkerMessage, WorkerToParentMessage } from './EmbeddedStoreWorkerMessages';

/** A store running on its own worker thread. */
export interface EmbeddedStoreWorkerHandle extends EmbeddedStoreHandle {
  /** Resolves with the exit code when the worker thread ends (after stop() or a crash). */
  readonly exited: Promise<number>;
}

const STOP_TIMEOUT_MS = 30_000;

/**
 * Transpiles .ts on the fly inside the worker. Used only when this module itself
 * runs from TypeScript sources (ts-jest, ts-node); built code loads the .js entry.
 */
const TYPESCRIPT_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const ts = require(workerData.typescriptModule);
require.extensions['.ts'] = (module, filename) => {
  const output = ts.transpileModule(readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  module._compile(output.outputText, filename);
};
require(workerData.typescriptEntry);
`;

const defaultWarn = (message: string): void => {
  process.emitWarning(message, { code: 'FEDPOD_EMBEDDED_STORE' });
};

/**
 * Runs the embedded store in a worker thread of this process, so it gets its own
 * core yet cannot outlive the process (a thread dies with it, even on kill -9).
 * Resolves once the store listens and has recovered its datasets; rejects with a
 * clear error if the port is taken or recovery fails.
 */
export function startEmbeddedStoreWorker(
  options: EmbeddedStoreOptions,
  warn: (message: string) => void = defaultWarn,
): Promise<EmbeddedStoreWorkerHandle> {
  const worker = createWorker(options);
  const exited = new Promise<number>((resolve): void => {
    worker.once('exit', resolve);
  });
  return new Promise<EmbeddedStoreWorkerHandle>((resolve, reject): void => {
    let ready = false;
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> => {
      stopping ??= (async(): Promise<void> => {
        const message: ParentToWorkerMessage = { type: 'stop' };
        worker.postMessage(message);
        const timer = setTimeout((): void => {
          warn('Embedded store worker did not stop in time; terminating it');
          void worker.terminate();
        }, STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    };
    worker.on('message', (message: WorkerToParentMessage): void => {
      switch (message.type) {
        case 'ready':
          ready = true;
          resolve({ url: message.url, stop, exited });
          break;
        case 'failed':
          if (ready) {
            warn(`Embedded store failed: ${message.message}`);
          } else {
            reject(new Error(message.message));
          }
          break;
        case 'warning':
          warn(message.message);
          break;
        case 'stopped':
          if (message.error) {
            warn(`Embedded store stopped with an error: ${message.error}`);
          }
          break;
      }
    });
    worker.on('error', (error: Error): void => {
      if (ready) {
        warn(`Embedded store worker crashed: ${error.stack ?? error.message}`);
      } else {
        reject(error);
      }
    });
    worker.once('exit', (code: number): void => {
      // A no-op if already settled.
      reject(new Error(`Embedded store worker exited with code ${code} before it was ready`));
    });
  });
}

function createWorker(options: EmbeddedStoreOptions): Worker {
  const compiledEntry = join(__dirname, 'embeddedStoreWorkerMain.js');
  if (existsSync(compiledEntry)) {
    const data: EmbeddedStoreWorkerData = { options };
    return new Worker(compiledEntry, { workerData: data });
  }
  const typescriptEntry = join(__dirname, 'embeddedStoreWorkerMain.ts');
  if (!__filename.endsWith('.ts') || !existsSync(typescriptEntry)) {
    throw new Error(`Embedded store worker entry not found next to ${__filename}; build the project first`);
  }
  const data: EmbeddedStoreWorkerData = {
    options,
    typescriptEntry,
    typescriptModule: require.resolve('typescript'),
  };
  return new Worker(TYPESCRIPT_BOOTSTRAP, { eval: true, workerData: data });
}
