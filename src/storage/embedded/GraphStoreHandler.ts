import type { AcceptNegotiator } from './AcceptNegotiator';
import type { BasicAuthGuard } from './BasicAuthGuard';
import type { GraphTarget } from './DatasetOperation';
import { DatasetOperationApplier } from './DatasetOperationApplier';
import type { EmbeddedDataset } from './EmbeddedDataset';
import { FedpodHttpError } from '../../util/HttpErrors';
import { mediaTypeOf, RDF_INPUT_FORMATS } from './SparqlMediaTypes';
import type { RequestBodyReader } from './RequestBodyReader';
import type { ResponseSender } from './ResponseSender';
import type { StoreRequestContext } from './StoreRequestContext';

const DEFAULT_TARGET: GraphTarget = { kind: 'default' };
const DATASET_TARGET: GraphTarget = { kind: 'dataset' };

/**
 * SPARQL 1.1 Graph Store HTTP Protocol. `?graph=<iri>` and `?default` address one
 * graph; no parameter addresses the whole dataset (quads), as Fuseki does.
 * `?default` means the stored default graph, not the union used by queries, so
 * that a PUT followed by a GET returns what was put.
 */
export class GraphStoreHandler {
  public constructor(
    private readonly guard: BasicAuthGuard,
    private readonly bodyReader: RequestBodyReader,
    private readonly sender: ResponseSender,
    private readonly graphNegotiator: AcceptNegotiator,
    private readonly datasetNegotiator: AcceptNegotiator,
  ) {}

  public async handle(context: StoreRequestContext, dataset: EmbeddedDataset, params: URLSearchParams, readOnly: boolean): Promise<void> {
    const target = this.targetFrom(params);
    const method = context.request.method ?? 'GET';
    if (method === 'GET' || method === 'HEAD') {
      this.read(context, dataset, target);
      return;
    }
    if (readOnly || (method !== 'PUT' && method !== 'POST' && method !== 'DELETE')) {
      throw new FedpodHttpError(405, 'method_not_allowed', `Method ${method} not allowed here`, { allow: readOnly ? 'GET, HEAD' : 'GET, HEAD, PUT, POST, DELETE' });
    }
    if (!this.guard.permits(context.auth, true)) {
      throw new FedpodHttpError(401, 'unauthorized', 'Unauthorized');
    }
    if (method === 'DELETE') {
      await this.drop(context, dataset, target);
    } else {
      await this.write(context, dataset, target, method === 'PUT');
    }
  }

  private read(context: StoreRequestContext, dataset: EmbeddedDataset, target: GraphTarget): void {
    if (target.kind === 'named' && !dataset.hasNamedGraph(target.iri)) {
      throw new FedpodHttpError(404, 'not_found', `No such graph: <${target.iri}>`);
    }
    const negotiator = target.kind === 'dataset' ? this.datasetNegotiator : this.graphNegotiator;
    const format = negotiator.choose(context.request.headers.accept);
    this.sender.send(context.response, 200, `${format}; charset=utf-8`, dataset.serialize(target, format));
  }

  private async write(context: StoreRequestContext, dataset: EmbeddedDataset, target: GraphTarget, replace: boolean): Promise<void> {
    const mediaType = mediaTypeOf(context.request.headers['content-type']);
    const input = RDF_INPUT_FORMATS.get(mediaType);
    if (!input) {
      throw new FedpodHttpError(415, 'unsupported_media_type', `Unsupported RDF media type "${mediaType}"`);
    }
    if (input.quads && target.kind !== 'dataset') {
      throw new FedpodHttpError(400, 'bad_request', `${mediaType} holds quads; send it without ?graph= / ?default`);
    }
    const body = await this.bodyReader.read(context.request);
    const existed = target.kind !== 'named' || dataset.hasNamedGraph(target.iri);
    await dataset.apply({
      kind: replace ? 'graphReplace' : 'graphAdd',
      target,
      format: input.format,
      // Relative IRIs in a graph's content resolve against the graph's IRI.
      baseIri: target.kind === 'named' ? target.iri : undefined,
      body,
    });
    this.sender.empty(context.response, replace && !existed ? 201 : 204);
  }

  private async drop(context: StoreRequestContext, dataset: EmbeddedDataset, target: GraphTarget): Promise<void> {
    if (target.kind === 'dataset') {
      // Too easy to send by mistake; DROP ALL through /update is explicit.
      throw new FedpodHttpError(405, 'method_not_allowed', 'DELETE of the whole dataset is not allowed; use ?graph= or ?default');
    }
    if (target.kind === 'named' && !dataset.hasNamedGraph(target.iri)) {
      throw new FedpodHttpError(404, 'not_found', `No such graph: <${target.iri}>`);
    }
    await dataset.apply({ kind: 'graphDrop', target });
    this.sender.empty(context.response, 204);
  }

  private targetFrom(params: URLSearchParams): GraphTarget {
    const graph = params.get('graph');
    const isDefault = params.has('default');
    if (graph !== null && isDefault) {
      throw new FedpodHttpError(400, 'bad_request', 'Use either ?graph= or ?default, not both');
    }
    if (graph !== null) {
      if (!DatasetOperationApplier.isSafeIri(graph)) {
        throw new FedpodHttpError(400, 'bad_request', `Graph name must be an absolute IRI: ${graph}`);
      }
      return { kind: 'named', iri: graph };
    }
    return isDefault ? DEFAULT_TARGET : DATASET_TARGET;
  }
}
