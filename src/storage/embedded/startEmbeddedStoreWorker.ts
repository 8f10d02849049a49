import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EmbeddedStoreHandle } from './runEmbeddedStore';
import type { EmbeddedStoreOptions } from './EmbeddedStoreOptions';
import type { EmbeddedStoreWorkerData, NumberedOperation, ParentToWorkerMessage, WorkerToParentMessage } from './EmbeddedStoreWorkerMessages';
import { InProcessStores } from './InProcessStores';
import type { InProcessStore, StoreAnswer, StoreOperation } from './InProcessStores';
import { messageOf } from '../../util/Errors';
import { TurnBatcher } from '../../util/TurnBatcher';

/** A store running on its own worker thread. */
export interface EmbeddedStoreWorkerHandle extends EmbeddedStoreHandle {
  /** Resolves with the exit code when the worker thread ends (after stop() or a crash; not when it is replaced after an engine fault). */
  readonly exited: Promise<number>;
}

const STOP_TIMEOUT_MS = 30_000;
const RESTART_ATTEMPTS = 10;
const RESTART_DELAY_MS = 1000;

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

interface LaunchedWorker {
  readonly worker: Worker;
  readonly url: string;
  readonly exited: Promise<number>;
  /** Operations sent to this worker and not answered yet, by id. */
  readonly waiting: Map<number, (answer: StoreAnswer | Error) => void>;
  /** Operations to post, as one message per turn of the loop. */
  readonly outgoing: TurnBatcher<NumberedOperation>;
}

let nextOperationId = 1;

/** An error with the code a dropped connection would have, so clients treat it alike (a query is sent again). */
function transportError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Sends an operation to the worker's thread; see InProcessStore.operate. */
async function operateOn(launched: LaunchedWorker, operation: StoreOperation, timeoutMs: number): Promise<StoreAnswer> {
  const id = nextOperationId;
  nextOperationId += 1;
  return new Promise<StoreAnswer>((resolve, reject): void => {
    const timer = setTimeout((): void => {
      launched.waiting.delete(id);
      reject(transportError(`The embedded store did not answer in ${timeoutMs} ms`, 'ETIMEDOUT'));
    }, timeoutMs);
    launched.waiting.set(id, (answer): void => {
      clearTimeout(timer);
      launched.waiting.delete(id);
      if (answer instanceof Error) {
        reject(answer);
      } else {
        resolve(answer);
      }
    });
    launched.outgoing.add({ id, operation });
  });
}

/**
 * Runs the embedded store in a worker thread of this process, so it gets its own
 * core yet cannot outlive the process (a thread dies with it, even on kill -9).
 * Resolves once the store listens and has recovered its datasets; rejects with a
 * clear error if the port is taken or recovery fails.
 *
 * If the store's engine faults (see EngineHealth), the worker answers 503 and this
 * replaces it: the old worker stops (flushing every acknowledged write), a new one
 * binds the same port and reloads the datasets from their snapshots and logs.
 */
export async function startEmbeddedStoreWorker(
  options: EmbeddedStoreOptions,
  warn: (message: string) => void = defaultWarn,
  inform: (message: string) => void = (): void => undefined,
): Promise<EmbeddedStoreWorkerHandle> {
  let stopping: Promise<void> | undefined;
  let restarting: Promise<void> | undefined;
  let resolveExited: (code: number) => void = (): void => undefined;
  const exited = new Promise<number>((resolve): void => {
    resolveExited = resolve;
  });
  let current: LaunchedWorker;
  const watch = (launched: LaunchedWorker): void => {
    // Ends the handle only when this worker is still the current one and is not being replaced.
    void launched.exited.then((code): void => {
      if (launched === current && !restarting) {
        resolveExited(code);
      }
    });
  };
  const restart = async(message: string): Promise<void> => {
    warn(`Embedded store engine failed (${message}); restarting the store to reload its datasets`);
    await stopWorker(current, warn);
    // The same port as before, also when the first start picked a free one.
    const port = Number(new URL(current.url).port);
    for (let attempt = 1; !stopping; attempt++) {
      try {
        current = await launchWorker({ ...options, port }, warn, onFault, inform);
        watch(current);
        warn('Embedded store restarted');
        return;
      } catch (error: unknown) {
        warn(`Embedded store restart failed (attempt ${attempt}): ${messageOf(error)}`);
        if (attempt >= RESTART_ATTEMPTS) {
          resolveExited(1);
          return;
        }
        await new Promise((resolve): NodeJS.Timeout => setTimeout(resolve, RESTART_DELAY_MS));
      }
    }
  };
  const onFault = (message: string): void => {
    if (stopping || restarting) {
      return;
    }
    restarting = restart(message).finally((): void => {
      restarting = undefined;
    });
  };
  current = await launchWorker(options, warn, onFault, inform);
  watch(current);
  const url = current.url;
  const unavailable = (why: string): StoreAnswer => ({ status: 503, contentType: 'text/plain; charset=utf-8', body: `Error 503: ${why}\n` });
  const inProcess: InProcessStore = {
    operate: async(operation, timeoutMs): Promise<StoreAnswer> => {
      if (stopping) {
        return unavailable('store is stopping');
      }
      if (restarting) {
        return unavailable('store is restarting after an engine failure');
      }
      return operateOn(current, operation, timeoutMs);
    },
  };
  InProcessStores.register(url, inProcess);
  const stop = (): Promise<void> => {
    stopping ??= (async(): Promise<void> => {
      InProcessStores.unregister(url, inProcess);
      await restarting;
      await stopWorker(current, warn);
    })();
    return stopping;
  };
  return { url, stop, exited, operate: async(operation): Promise<StoreAnswer> => inProcess.operate(operation, 30_000) };
}

async function stopWorker({ worker, exited, outgoing }: LaunchedWorker, warn: (message: string) => void): Promise<void> {
  // Operations sent before the stop reach the worker before it.
  outgoing.flush();
  const message: ParentToWorkerMessage = { type: 'stop' };
  worker.postMessage(message);
  const timer = setTimeout((): void => {
    warn('Embedded store worker did not stop in time; terminating it');
    void worker.terminate();
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function launchWorker(
  options: EmbeddedStoreOptions,
  warn: (message: string) => void,
  onFault: (message: string) => void,
  inform: (message: string) => void,
): Promise<LaunchedWorker> {
  const worker = createWorker(options);
  const waiting = new Map<number, (answer: StoreAnswer | Error) => void>();
  const outgoing = new TurnBatcher<NumberedOperation>((operations): void => {
    const message: ParentToWorkerMessage = { type: 'operations', operations };
    worker.postMessage(message);
  });
  const exited = new Promise<number>((resolve): void => {
    worker.once('exit', (code): void => {
      for (const settle of [ ...waiting.values() ]) {
        settle(transportError('The embedded store stopped before it answered', 'ECONNRESET'));
      }
      resolve(code);
    });
  });
  return new Promise<LaunchedWorker>((resolve, reject): void => {
    let ready = false;
    worker.on('message', (message: WorkerToParentMessage): void => {
      switch (message.type) {
        case 'ready':
          ready = true;
          resolve({ worker, url: message.url, exited, waiting, outgoing });
          break;
        case 'answers':
          for (const { id, answer } of message.answers) {
            waiting.get(id)?.(answer);
          }
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
        case 'info':
          inform(message.message);
          break;
        case 'engineFault':
          onFault(message.message);
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
