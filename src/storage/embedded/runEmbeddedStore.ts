import { AcceptNegotiator } from './AcceptNegotiator';
import { BasicAuthGuard } from './BasicAuthGuard';
import { DirectoryLock } from '../../util/DirectoryLock';
import { DatasetRegistry } from './DatasetRegistry';
import { DatasetServiceRouter } from './DatasetServiceRouter';
import { DirectOperations } from './DirectOperations';
import { EmbeddedDatasetFactory } from './EmbeddedDatasetFactory';
import type { EmbeddedStoreOptions } from './EmbeddedStoreOptions';
import { EMBEDDED_STORE_DEFAULTS } from './EmbeddedStoreOptions';
import { EmbeddedStoreServer } from './EmbeddedStoreServer';
import { EngineHealth } from './EngineHealth';
import { FusekiAdminHandler } from './FusekiAdminHandler';
import { GraphStoreHandler } from './GraphStoreHandler';
import { InProcessStores } from './InProcessStores';
import type { InProcessStore, StoreAnswer, StoreOperation } from './InProcessStores';
import { DATASET_OFFERS, GRAPH_OFFERS, GRAPH_RESULT_OFFERS, RESULTS_OFFERS } from './SparqlMediaTypes';
import { RequestBodyReader } from './RequestBodyReader';
import { ResponseSender } from './ResponseSender';
import { SparqlProtocolHandler } from './SparqlProtocolHandler';
import { SparqlQueryFormSniffer } from './SparqlQueryFormSniffer';

/** A running embedded store. */
export interface EmbeddedStoreHandle {
  /** Base URL, e.g. http://127.0.0.1:3030 (datasets live at `${url}/${name}`). */
  readonly url: string;
  /** Stops serving, waits for in-flight requests, flushes and closes every dataset. */
  stop: () => Promise<void>;
  /** Runs a query or update without HTTP, answering as the HTTP face would (see InProcessStores). */
  operate: (operation: StoreOperation) => Promise<StoreAnswer>;
}

const defaultWarn = (message: string): void => {
  process.emitWarning(message, { code: 'FEDPOD_EMBEDDED_STORE' });
};

/**
 * Runs the embedded store in the current thread (the `fedpod store` CLI
 * subcommand). Resolves once the port is bound and every dataset is recovered;
 * rejects, without touching the data, if the port is taken or another live
 * process holds the data directory. Installs no signal handlers: the caller
 * decides when to call stop().
 *
 * If the engine faults (see EngineHealth), every request answers 503 from then on and
 * `onEngineFault` is called: the caller should stop this store and start a new one, which
 * reloads every durable dataset from its snapshot and log.
 */
export async function runEmbeddedStore(
  options: EmbeddedStoreOptions,
  warn: (message: string) => void = defaultWarn,
  onEngineFault?: (message: string) => void,
  inform?: (message: string) => void,
): Promise<EmbeddedStoreHandle> {
  const defaults = EMBEDDED_STORE_DEFAULTS;
  const settings = {
    host: options.host ?? defaults.host,
    port: options.port ?? defaults.port,
    dataDir: options.dataDir,
    user: options.user ?? defaults.user,
    password: options.password ?? defaults.password,
    compactThresholdBytes: options.compactThresholdBytes ?? defaults.compactThresholdBytes,
    compactThresholdRecords: options.compactThresholdRecords ?? defaults.compactThresholdRecords,
    compactAtCloseBytes: options.compactAtCloseBytes ?? defaults.compactAtCloseBytes,
    rebuildAfterRemovals: options.rebuildAfterRemovals ?? defaults.rebuildAfterRemovals,
    anonymousAccess: options.anonymousAccess ?? defaults.anonymousAccess,
    maxBodyBytes: options.maxBodyBytes ?? defaults.maxBodyBytes,
  };
  if (!settings.dataDir) {
    throw new Error('Embedded store: dataDir is required');
  }
  const health = new EngineHealth();
  health.onFault((error): void => {
    warn(`The store engine failed and serves nothing until it is restarted: ${error.stack ?? error.message}`);
    onEngineFault?.(error.message);
  });
  const registry = new DatasetRegistry(settings.dataDir, new EmbeddedDatasetFactory({
    compactThresholdBytes: settings.compactThresholdBytes,
    compactThresholdRecords: settings.compactThresholdRecords,
    compactAtCloseBytes: settings.compactAtCloseBytes,
    rebuildAfterRemovals: settings.rebuildAfterRemovals,
    warn,
    inform,
    health,
  }));
  const guard = new BasicAuthGuard(settings.user, settings.password, settings.anonymousAccess);
  const bodyReader = new RequestBodyReader(settings.maxBodyBytes);
  const sender = new ResponseSender('fedpod-store', warn);
  const sparql = new SparqlProtocolHandler(
    guard,
    sender,
    new SparqlQueryFormSniffer(),
    new AcceptNegotiator(RESULTS_OFFERS),
    new AcceptNegotiator(GRAPH_RESULT_OFFERS),
  );
  const graphStore = new GraphStoreHandler(
    guard,
    bodyReader,
    sender,
    new AcceptNegotiator(GRAPH_OFFERS),
    new AcceptNegotiator(DATASET_OFFERS),
  );
  const server = new EmbeddedStoreServer(
    registry,
    guard,
    new FusekiAdminHandler(registry, guard, bodyReader, sender),
    new DatasetServiceRouter(registry, bodyReader, sparql, graphStore),
    sender,
  );

  // Port first: a second instance on the same port fails before touching the data.
  const url = await server.listen(settings.port, settings.host);
  let lock: DirectoryLock | undefined;
  try {
    lock = await DirectoryLock.acquire(settings.dataDir, { fileName: 'store.lock', label: 'Data directory', exclusiveInProcess: true });
    await registry.open();
  } catch (error: unknown) {
    await server.close();
    await lock?.release();
    throw error;
  }
  server.markReady();
  const direct = new DirectOperations(registry, sparql, sender);
  const operate = async(operation: StoreOperation): Promise<StoreAnswer> => direct.run(operation);
  // Clients on this thread (an import, tests) skip HTTP too; a worker's parent registers its own.
  const inThread: InProcessStore = { operate };
  InProcessStores.register(url, inThread);
  const heldLock = lock;
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: (): Promise<void> => {
      InProcessStores.unregister(url, inThread);
      stopping ??= direct.close().then(async(): Promise<void> => server.close()).then(async(): Promise<void> => heldLock.release());
      return stopping;
    },
    operate,
  };
}
