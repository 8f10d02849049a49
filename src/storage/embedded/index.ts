/** Embedded Oxigraph triple store with a Fuseki-compatible HTTP face, durable on disk. */
export { runEmbeddedStore } from './runEmbeddedStore';
export type { EmbeddedStoreHandle } from './runEmbeddedStore';
export { startEmbeddedStoreWorker } from './startEmbeddedStoreWorker';
export type { EmbeddedStoreWorkerHandle } from './startEmbeddedStoreWorker';
export { EMBEDDED_STORE_DEFAULTS } from './EmbeddedStoreOptions';
export type { EmbeddedStoreOptions } from './EmbeddedStoreOptions';
export type { AnonymousAccess } from './BasicAuthGuard';
export { EmbeddedDataset } from './EmbeddedDataset';
export type { QueryDatasetOverride } from './EmbeddedDataset';
export { EmbeddedDatasetFactory } from './EmbeddedDatasetFactory';
export type { EmbeddedDatasetFactoryOptions } from './EmbeddedDatasetFactory';
export type { DatasetOperation, GraphTarget } from './DatasetOperation';
export { DatasetRegistry } from './DatasetRegistry';
export type { DatasetDescriptor, DatasetType } from './DatasetRegistry';
export { InvalidOperationError } from './InvalidOperationError';
export { StoreUnavailableError } from './StoreUnavailableError';
export { EngineHealth } from './EngineHealth';
