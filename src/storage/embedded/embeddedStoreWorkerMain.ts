/**
 * Entry point of the worker thread started by startEmbeddedStoreWorker: runs
 * the store on this thread's event loop (the second core) and reports back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddedStoreWorkerData, ParentToWorkerMessage, WorkerToParentMessage } from './EmbeddedStoreWorkerMessages';
import { runEmbeddedStore } from './runEmbeddedStore';
import { messageOf } from '../../util/Errors';

const port = parentPort;
if (!port) {
  throw new Error('embeddedStoreWorkerMain must run inside a worker thread');
}
const post = (message: WorkerToParentMessage): void => port.postMessage(message);
const { options } = workerData as EmbeddedStoreWorkerData;

runEmbeddedStore(
  options,
  (message): void => post({ type: 'warning', message }),
  (message): void => post({ type: 'engineFault', message }),
  (message): void => post({ type: 'info', message }),
).then((handle): void => {
  port.on('message', (message: ParentToWorkerMessage): void => {
    if (message.type === 'operation') {
      void handle.operate(message.operation).then((answer): void => post({ type: 'answer', id: message.id, answer }));
      return;
    }
    handle.stop().then(
      (): void => post({ type: 'stopped' }),
      (error: unknown): void => post({ type: 'stopped', error: messageOf(error) }),
    ).finally((): void => {
      // Nothing else keeps the thread alive once the server and logs are closed.
      port.close();
    });
  });
  post({ type: 'ready', url: handle.url });
}, (error: unknown): void => {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  port.close();
});
