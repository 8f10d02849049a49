import type { DatasetRegistry } from './DatasetRegistry';
import type { EmbeddedDataset } from './EmbeddedDataset';
import type { GraphStoreHandler } from './GraphStoreHandler';
import { FedpodHttpError } from '../../util/HttpErrors';
import { FORM, mediaTypeOf, SPARQL_QUERY, SPARQL_UPDATE } from './SparqlMediaTypes';
import type { RequestBodyReader } from './RequestBodyReader';
import type { SparqlProtocolHandler } from './SparqlProtocolHandler';
import type { StoreRequestContext } from './StoreRequestContext';

const NO_PARAMS = new URLSearchParams();

/**
 * Routes `/{ds}[/{service}]` the way Fuseki does: `query`, `update`, `data`
 * (read-write Graph Store), `get` (read-only), `sparql` (query or update), and the
 * dataset URL itself, which takes queries, updates and Graph Store requests and
 * tells them apart by method and content type. That last one is what CSS's
 * SparqlDataAccessor (via fetch-sparql-endpoint) uses for everything.
 */
export class DatasetServiceRouter {
  public constructor(
    private readonly registry: DatasetRegistry,
    private readonly bodyReader: RequestBodyReader,
    private readonly sparql: SparqlProtocolHandler,
    private readonly graphStore: GraphStoreHandler,
  ) {}

  public async handle(context: StoreRequestContext): Promise<void> {
    const { path } = context;
    const slash = path.indexOf('/', 1);
    const name = slash < 0 ? path.slice(1) : path.slice(1, slash);
    let service = slash < 0 ? '' : path.slice(slash + 1);
    if (service.endsWith('/')) {
      service = service.slice(0, -1);
    }
    const dataset = this.registry.get(name);
    if (!dataset) {
      throw new FedpodHttpError(404, 'not_found', `No such dataset: /${name}`);
    }
    const params = context.search.length > 0 ? new URLSearchParams(context.search) : NO_PARAMS;
    switch (service) {
      case '':
        return this.handleCombined(context, dataset, params, true);
      case 'sparql':
        return this.handleCombined(context, dataset, params, false);
      case 'query':
        return this.handleQueryService(context, dataset, params);
      case 'update':
        return this.handleUpdateService(context, dataset, params);
      case 'data':
        return this.graphStore.handle(context, dataset, params, false);
      case 'get':
        return this.graphStore.handle(context, dataset, params, true);
      default:
        throw new FedpodHttpError(404, 'not_found', `No service "${service}" on dataset /${name}`);
    }
  }

  private async handleCombined(context: StoreRequestContext, dataset: EmbeddedDataset, params: URLSearchParams, withGraphStore: boolean): Promise<void> {
    const method = context.request.method ?? 'GET';
    if (method === 'GET' || method === 'HEAD') {
      if (params.has('query') || !withGraphStore) {
        this.sparql.query(context, dataset, params.get('query'), params);
        return;
      }
      return this.graphStore.handle(context, dataset, params, false);
    }
    const mediaType = mediaTypeOf(context.request.headers['content-type']);
    if (method === 'POST') {
      switch (mediaType) {
        case SPARQL_QUERY:
          this.sparql.query(context, dataset, await this.bodyReader.readText(context.request), params);
          return;
        case SPARQL_UPDATE:
          return this.sparql.update(context, dataset, await this.bodyReader.readText(context.request), params);
        case FORM: {
          const form = new URLSearchParams(await this.bodyReader.readText(context.request));
          if (form.has('query')) {
            this.sparql.query(context, dataset, form.get('query'), form);
            return;
          }
          if (form.has('update')) {
            return this.sparql.update(context, dataset, form.get('update'), form);
          }
          throw new FedpodHttpError(400, 'bad_request', 'Form has neither "query" nor "update"');
        }
        default:
          break;
      }
    }
    if (withGraphStore) {
      return this.graphStore.handle(context, dataset, params, false);
    }
    if (method === 'POST') {
      throw new FedpodHttpError(415, 'unsupported_media_type', `Unsupported content type "${mediaType}" for a SPARQL request`);
    }
    throw new FedpodHttpError(405, 'method_not_allowed', `Method ${method} not allowed here`, { allow: 'GET, HEAD, POST' });
  }

  private async handleQueryService(context: StoreRequestContext, dataset: EmbeddedDataset, params: URLSearchParams): Promise<void> {
    const method = context.request.method ?? 'GET';
    if (method === 'GET' || method === 'HEAD') {
      this.sparql.query(context, dataset, params.get('query'), params);
      return;
    }
    if (method !== 'POST') {
      throw new FedpodHttpError(405, 'method_not_allowed', `Method ${method} not allowed here`, { allow: 'GET, HEAD, POST' });
    }
    const mediaType = mediaTypeOf(context.request.headers['content-type']);
    if (mediaType === SPARQL_QUERY) {
      this.sparql.query(context, dataset, await this.bodyReader.readText(context.request), params);
    } else if (mediaType === FORM) {
      const form = new URLSearchParams(await this.bodyReader.readText(context.request));
      this.sparql.query(context, dataset, form.get('query'), form);
    } else {
      throw new FedpodHttpError(415, 'unsupported_media_type', `Unsupported content type "${mediaType}" for a query`);
    }
  }

  private async handleUpdateService(context: StoreRequestContext, dataset: EmbeddedDataset, params: URLSearchParams): Promise<void> {
    const method = context.request.method ?? 'GET';
    if (method !== 'POST') {
      throw new FedpodHttpError(405, 'method_not_allowed', `Method ${method} not allowed here`, { allow: 'POST' });
    }
    const mediaType = mediaTypeOf(context.request.headers['content-type']);
    if (mediaType === SPARQL_UPDATE) {
      return this.sparql.update(context, dataset, await this.bodyReader.readText(context.request), params);
    }
    if (mediaType === FORM) {
      const form = new URLSearchParams(await this.bodyReader.readText(context.request));
      return this.sparql.update(context, dataset, form.get('update'), form);
    }
    throw new FedpodHttpError(415, 'unsupported_media_type', `Unsupported content type "${mediaType}" for an update`);
  }
}
