import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcceptNegotiator } from '../../../../../src/storage/embedded/AcceptNegotiator';
import type { AnonymousAccess } from '../../../../../src/storage/embedded/BasicAuthGuard';
import { BasicAuthGuard } from '../../../../../src/storage/embedded/BasicAuthGuard';
import { DatasetRegistry } from '../../../../../src/storage/embedded/DatasetRegistry';
import { DatasetServiceRouter } from '../../../../../src/storage/embedded/DatasetServiceRouter';
import { EmbeddedDatasetFactory } from '../../../../../src/storage/embedded/EmbeddedDatasetFactory';
import { GraphStoreHandler } from '../../../../../src/storage/embedded/GraphStoreHandler';
import { DATASET_OFFERS, GRAPH_OFFERS, GRAPH_RESULT_OFFERS, RESULTS_OFFERS } from '../../../../../src/storage/embedded/SparqlMediaTypes';
import { RequestBodyReader } from '../../../../../src/storage/embedded/RequestBodyReader';
import { ResponseSender } from '../../../../../src/storage/embedded/ResponseSender';
import { SparqlProtocolHandler } from '../../../../../src/storage/embedded/SparqlProtocolHandler';
import { SparqlQueryFormSniffer } from '../../../../../src/storage/embedded/SparqlQueryFormSniffer';

/** The dataset routes of the embedded store, built from their real classes, on a local port, with one `mem` dataset `ds`. */
export interface DatasetServer {
  url: string;
  registry: DatasetRegistry;
  close: () => Promise<void>;
}

export async function startDatasetServer(anonymousAccess: AnonymousAccess = 'none'): Promise<DatasetServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fedpod-dataset-server-'));
  const registry = new DatasetRegistry(dataDir, new EmbeddedDatasetFactory({ compactThresholdBytes: 1024 * 1024, warn: (): void => undefined }));
  await registry.open();
  await registry.create('ds', 'mem');
  const guard = new BasicAuthGuard('admin', 'admin', anonymousAccess);
  const sender = new ResponseSender('test', (): void => undefined);
  const bodyReader = new RequestBodyReader(1024 * 1024);
  const sparql = new SparqlProtocolHandler(guard, sender, new SparqlQueryFormSniffer(), new AcceptNegotiator(RESULTS_OFFERS),
    new AcceptNegotiator(GRAPH_RESULT_OFFERS));
  const graphStore = new GraphStoreHandler(guard, bodyReader, sender, new AcceptNegotiator(GRAPH_OFFERS), new AcceptNegotiator(DATASET_OFFERS));
  const router = new DatasetServiceRouter(registry, bodyReader, sparql, graphStore);
  const server = http.createServer((request, response): void => {
    const [ path, search = '' ] = (request.url ?? '/').split('?');
    const auth = guard.check(request.headers.authorization);
    // As the store's server does: anonymous requests get no further than their rights allow.
    if (auth === 'rejected' || !guard.permits(auth, false)) {
      sender.unauthorized(response);
      return;
    }
    router.handle({ request, response, path, search, auth }).catch((error: unknown): void => sender.error(response, error));
  });
  await new Promise<void>((resolve): void => {
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    registry,
    close: async(): Promise<void> => {
      server.closeAllConnections();
      await new Promise<void>((resolve): void => {
        server.close((): void => resolve());
      });
      await registry.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
