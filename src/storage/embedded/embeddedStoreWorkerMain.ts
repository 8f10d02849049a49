/**
 * Entry point of the worker thread started by startEmbeddedStoreWorker: runs
 * the store on this thread's event loop (the second core) and reports back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { EmbeddedStoreWorkerData, NumberedAnswer, ParentToWorkerMessage, WorkerToParentMessage } from './EmbeddedStoreWorkerMessages';
import { runEmbeddedStore } from './runEmbeddedStore';
import { messageOf } from '../../util/Errors';
import { TurnBatcher } from '../../util/TurnBatcher';

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
  const answers = new TurnBatcher<NumberedAnswer>((list): void => post({ type: 'answers', answers: list }));
  port.on('message', (message: ParentToWorkerMessage): void => {
    if (message.type === 'operations') {
      for (const { id, operation } of message.operations) {
        void handle.operate(operation).then((answer): void => answers.add({ id, answer }));
      }
      return;
    }
    // Answers of operations that finished while stopping go before the 'stopped' message.
    handle.stop().finally((): void => answers.flush()).then(
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
