import type { EmbeddedStoreOptions } from './EmbeddedStoreOptions';
import type { StoreAnswer, StoreOperation } from './InProcessStores';

/** What the parent hands the worker thread. */
export interface EmbeddedStoreWorkerData {
  readonly options: EmbeddedStoreOptions;
  /** Only when running from TypeScript sources: the .ts entry and the typescript module to transpile it. */
  readonly typescriptEntry?: string;
  readonly typescriptModule?: string;
}

export type WorkerToParentMessage =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'warning'; readonly message: string }
  /** Worth a line in the log, e.g. what loading a dataset cost. */
  | { readonly type: 'info'; readonly message: string }
  /** The engine faulted: the store answers 503 until the parent replaces this worker. */
  | { readonly type: 'engineFault'; readonly message: string }
  | { readonly type: 'stopped'; readonly error?: string }
  /** The answer to the operation of that id. */
  | { readonly type: 'answer'; readonly id: number; readonly answer: StoreAnswer };

export type ParentToWorkerMessage =
  | { readonly type: 'stop' }
  /** A query or update of a client of the parent's thread (InProcessStores). */
  | { readonly type: 'operation'; readonly id: number; readonly operation: StoreOperation };
