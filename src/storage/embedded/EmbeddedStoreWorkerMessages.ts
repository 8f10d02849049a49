import type { EmbeddedStoreOptions } from './EmbeddedStoreOptions';
import type { StoreAnswer, StoreOperation } from './InProcessStores';

/** What the parent hands the worker thread. */
export interface EmbeddedStoreWorkerData {
  readonly options: EmbeddedStoreOptions;
  /** Only when running from TypeScript sources: the .ts entry and the typescript module to transpile it. */
  readonly typescriptEntry?: string;
  readonly typescriptModule?: string;
}

export interface NumberedOperation {
  readonly id: number;
  readonly operation: StoreOperation;
}

export interface NumberedAnswer {
  readonly id: number;
  readonly answer: StoreAnswer;
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
  /** The answers to operations, by their ids (those answered in one turn of the thread's loop). */
  | { readonly type: 'answers'; readonly answers: readonly NumberedAnswer[] };

export type ParentToWorkerMessage =
  | { readonly type: 'stop' }
  /** Queries and updates of clients of the parent's thread (InProcessStores), those sent in one turn of its loop. */
  | { readonly type: 'operations'; readonly operations: readonly NumberedOperation[] };
