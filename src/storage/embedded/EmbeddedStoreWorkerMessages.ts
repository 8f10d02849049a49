import type { EmbeddedStoreOptions } from './EmbeddedStoreOptions';

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
  | { readonly type: 'stopped'; readonly error?: string };

export type ParentToWorkerMessage = { readonly type: 'stop' };
